package io.agentoutcomes.topology.pricing;

import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.analytics.TokenNormalizer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;

/**
 * A model's token prices as they apply at one time, and the cost of a result's tokens at them, computed as
 * genai-prices computes it: uncached input, cache reads, cache writes and output each at its price (a cache kind the
 * model has no price for is priced as input), every tier chosen by the request's whole input, summed exactly.
 * Reasoning tokens are part of the output and priced with it, once: genai-prices has no reasoning price, and the
 * providers bill thinking as output (docs/analytics.md, "Prices").
 *
 * @param provider   the price table's provider id, e.g. {@code aws} for Bedrock
 * @param model      the price table's model id, e.g. {@code claude-3-5-sonnet}
 * @param input      USD per million uncached input tokens
 * @param output     USD per million output tokens, or null when the model has none (embeddings)
 * @param cacheRead  USD per million cache-read tokens, or null: priced as input
 * @param cacheWrite USD per million cache-write tokens, or null: priced as input
 */
public record ModelPrices(String provider, String model, TokenPrice input, TokenPrice output, TokenPrice cacheRead,
                          TokenPrice cacheWrite) {

    /** The total cost of the tokens in exact USD (what {@link #cost} totals, without building its parts). */
    public BigDecimal total(TokenNormalizer.Tokens tokens) {
        long wholeInput = tokens.input() + tokens.cacheRead() + tokens.cacheWrite();
        long asInput = tokens.input() + (cacheRead == null ? tokens.cacheRead() : 0) + (cacheWrite == null ? tokens.cacheWrite() : 0);
        BigDecimal total = input.cost(asInput, wholeInput);
        total = output == null ? total : total.add(output.cost(tokens.output(), wholeInput));
        total = cacheRead == null ? total : total.add(cacheRead.cost(tokens.cacheRead(), wholeInput));
        total = cacheWrite == null ? total : total.add(cacheWrite.cost(tokens.cacheWrite(), wholeInput));
        return total.setScale(Money.SCALE, RoundingMode.HALF_EVEN);
    }

    /** The cost of the tokens, marked {@link CostSource#COMPUTED}: each part and the total, in exact USD. */
    public Cost cost(TokenNormalizer.Tokens tokens) {
        long wholeInput = tokens.input() + tokens.cacheRead() + tokens.cacheWrite();
        long asInput = tokens.input() + (cacheRead == null ? tokens.cacheRead() : 0) + (cacheWrite == null ? tokens.cacheWrite() : 0);
        BigDecimal inputCost = input.cost(asInput, wholeInput);
        BigDecimal outputCost = output == null ? BigDecimal.ZERO : output.cost(tokens.output(), wholeInput);
        BigDecimal readCost = cacheRead == null ? BigDecimal.ZERO : cacheRead.cost(tokens.cacheRead(), wholeInput);
        BigDecimal writeCost = cacheWrite == null ? BigDecimal.ZERO : cacheWrite.cost(tokens.cacheWrite(), wholeInput);
        return Cost.newBuilder()
                .setInput(usd(inputCost)).setOutput(usd(outputCost))
                .setCacheRead(cacheRead == null ? null : usd(readCost))
                .setCacheWrite(cacheWrite == null ? null : usd(writeCost))
                .setTotal(usd(inputCost.add(outputCost).add(readCost).add(writeCost)))
                .setSource(CostSource.COMPUTED).build();
    }

    private static ByteBuffer usd(BigDecimal amount) {
        return Money.toBytes(amount.setScale(Money.SCALE, RoundingMode.HALF_EVEN));
    }
}

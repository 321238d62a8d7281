package io.agentoutcomes.topology.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.analytics.TokenNormalizer.Tokens;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped table's matching, one provider family per test. Every expected total is what genai-prices' own
 * {@code calcPrice} (npm @pydantic/genai-prices 0.1.8, run with node on the same usage and time) returns, so the
 * Java lookup and arithmetic are checked against an independent implementation of the same table. Tokens are as
 * {@code TokenNormalizer} gives them: uncached input, output, cache reads, cache writes.
 */
class PriceTableTest {
    private static final Instant NOON = Instant.parse("2026-11-24T12:00:00Z");
    private final PriceTable table = PriceTable.shipped();

    private static Tokens tokens(long input, long output, long cacheRead, long cacheWrite) {
        return new Tokens(input, output, 0, cacheRead, cacheWrite, input + output + cacheRead + cacheWrite, 1);
    }

    private ModelPrices prices(String provider, String model) {
        return table.find(provider, model, NOON).orElseThrow(() -> new AssertionError("no price for " + provider + " " + model));
    }

    /** The computed cost's total; the total alone (what a mismatch is judged by) must be the same amount. */
    private static BigDecimal total(ModelPrices prices, Tokens tokens) {
        BigDecimal total = Money.toDecimal(prices.cost(tokens).getTotal());
        assertThat(prices.total(tokens)).isEqualByComparingTo(total);
        return total;
    }

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount).setScale(Money.SCALE);
    }

    @Test
    void openAiDatedModelIsPricedAsItsFamilyWithCachedInputAtTheCachePrice() {
        ModelPrices prices = prices("openai", "gpt-4o-2024-08-06");
        assertThat(prices.model()).isEqualTo("gpt-4o");
        // calcPrice({input_tokens: 1000, cache_read_tokens: 200, output_tokens: 500}) = 0.00725
        assertThat(total(prices, tokens(800, 500, 200, 0))).isEqualTo(usd("0.00725"));
    }

    @Test
    void anthropicCompactDateAndCacheReadsAndWritesArePricedApart() {
        ModelPrices prices = prices("anthropic", "claude-3-5-sonnet-20240620");
        assertThat(prices.model()).isEqualTo("claude-3-5-sonnet");
        Cost cost = prices.cost(tokens(1000, 300, 100, 100));
        // calcPrice({input_tokens: 1200, cache_read_tokens: 100, cache_write_tokens: 100, output_tokens: 300}) = 0.007905
        assertThat(cost).isEqualTo(Cost.newBuilder().setInput(Money.toBytes(usd("0.003"))).setOutput(Money.toBytes(usd("0.0045")))
                .setCacheRead(Money.toBytes(usd("0.00003"))).setCacheWrite(Money.toBytes(usd("0.000375")))
                .setTotal(Money.toBytes(usd("0.007905"))).setSource(CostSource.COMPUTED).build());
    }

    @Test
    void bedrockModelIdsWithAndWithoutARegionPrefixMatchTheRegionalModel() {
        for (String id : new String[] {"anthropic.claude-3-5-sonnet-20240620-v1:0", "us.anthropic.claude-3-5-sonnet-20240620-v1:0"}) {
            ModelPrices prices = prices("bedrock", id);
            assertThat(prices.provider()).isEqualTo("aws");
            assertThat(prices.model()).isEqualTo("regional.anthropic.claude-3-5-sonnet-20240620-v1:0");
            assertThat(total(prices, tokens(1000, 300, 0, 0))).isEqualTo(usd("0.0075"));
        }
    }

    @Test
    void googleModelsPathIsMatchedAndTheTierIsChosenByTheWholeInput() {
        ModelPrices prices = prices("google", "models/gemini-1.5-pro-002");
        assertThat(prices.model()).isEqualTo("gemini-1.5-pro");
        assertThat(total(prices, tokens(1000, 300, 0, 0))).isEqualTo(usd("0.00275"));
        // past 128k input tokens both input and output go to the upper tier: calcPrice = 0.753
        assertThat(total(prices, tokens(300_000, 300, 0, 0))).isEqualTo(usd("0.753"));
    }

    @Test
    void azureOpenAiModelIsPricedByTheAzureProvider() {
        ModelPrices prices = prices("azure", "gpt-4o-mini");
        assertThat(prices.provider()).isEqualTo("azure");
        assertThat(total(prices, tokens(1000, 300, 0, 0))).isEqualTo(usd("0.00033"));
    }

    @Test
    void mistralLatestAliasMatchesItsModel() {
        ModelPrices prices = prices("mistral", "mistral-large-latest");
        assertThat(prices.model()).isEqualTo("mistral-large");
        assertThat(total(prices, tokens(1000, 300, 0, 0))).isEqualTo(usd("0.0038"));
    }

    @Test
    void groqModelIsPricedExactly() {
        assertThat(total(prices("groq", "llama-3.3-70b-versatile"), tokens(1000, 300, 0, 0))).isEqualTo(usd("0.000827"));
    }

    @Test
    void deepSeekOffPeakPricesApplyByTimeOfDay() {
        Tokens tokens = tokens(600, 300, 400, 0);
        assertThat(total(prices("deepseek", "deepseek-chat"), tokens)).isEqualTo(usd("0.00052"));
        ModelPrices offPeak = table.find("deepseek", "deepseek-chat", Instant.parse("2026-11-24T17:00:00Z")).orElseThrow();
        assertThat(total(offPeak, tokens)).isEqualTo(usd("0.00026"));
    }

    @Test
    void xAiModelIsPricedExactly() {
        assertThat(total(prices("x-ai", "grok-3"), tokens(1000, 300, 0, 0))).isEqualTo(usd("0.0075"));
    }

    @Test
    void withoutAProviderTheModelNameFindsIt() {
        ModelPrices prices = prices(null, "gpt-4o-mini");
        assertThat(prices.provider()).isEqualTo("openai");
        assertThat(total(prices, tokens(1000, 300, 0, 0))).isEqualTo(usd("0.00033"));
    }

    @Test
    void anUnknownModelHasNoPrice() {
        assertThat(table.find("openai", "no-such-model-xyz", NOON)).isEmpty();
        assertThat(table.find("openai", null, NOON)).isEmpty();
    }

    @Test
    void compactDatesAreDashedOnlyWhenTheyAreDates() {
        assertThat(PriceTable.withDashedDate("claude-3-5-sonnet-20240620")).isEqualTo(Optional.of("claude-3-5-sonnet-2024-06-20"));
        assertThat(PriceTable.withDashedDate("model-20240231")).isEmpty();
        assertThat(PriceTable.withDashedDate("gpt-4o")).isEmpty();
    }

    @Test
    void aUserFileIsLookedUpBeforeTheShippedTable(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("prices.json");
        Files.writeString(file, """
                {"source": "ours", "providers": [{"id": "openai", "models": [
                  {"id": "gpt-4o-mini", "match": {"starts_with": "gpt-4o-mini"}, "prices": {"input_mtok": 1, "output_mtok": 2}}]}]}
                """);
        PriceTable overridden = PriceTable.withOverrides(file);
        assertThat(total(overridden.find("openai", "gpt-4o-mini", NOON).orElseThrow(), tokens(1000, 300, 0, 0))).isEqualTo(usd("0.0016"));
        // what the user's file does not price is still the shipped table's
        assertThat(total(overridden.find("anthropic", "claude-3-5-sonnet-20240620", NOON).orElseThrow(), tokens(1000, 300, 0, 0)))
                .isEqualTo(usd("0.0075"));
    }

    @Test
    void theShippedTableNamesItsSourceAndVersion() {
        assertThat(table.source()).isEqualTo("npm @pydantic/genai-prices 0.1.8 (https://github.com/pydantic/genai-prices, data from prices/data.json)");
    }
}

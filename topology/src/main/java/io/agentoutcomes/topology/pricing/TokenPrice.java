package io.agentoutcomes.topology.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The price of one kind of token, in USD per million: a flat price, or a base with tiers (genai-prices'
 * {@code TieredPrices}) where the tier is chosen by the request's whole input (cached tokens included) and then
 * prices every token of the kind, as genai-prices does: past {@code start} input tokens, {@code price} applies.
 */
public record TokenPrice(BigDecimal base, List<Tier> tiers) {

    /** One tier: its price applies once the input passes {@code start} tokens. */
    public record Tier(long start, BigDecimal price) {
    }

    static TokenPrice of(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isNumber()) {
            return new TokenPrice(node.decimalValue(), List.of());
        }
        List<Tier> tiers = new ArrayList<>();
        node.get("tiers").forEach(t -> tiers.add(new Tier(t.get("start").asLong(), t.get("price").decimalValue())));
        tiers.sort((a, b) -> Long.compare(a.start(), b.start()));
        return new TokenPrice(node.get("base").decimalValue(), List.copyOf(tiers));
    }

    /** The price per million tokens for a request of {@code input} input tokens. */
    BigDecimal perMillion(long input) {
        BigDecimal price = base;
        for (Tier tier : tiers) {
            if (input > tier.start()) {
                price = tier.price();
            }
        }
        return price;
    }

    /** The exact cost of {@code tokens} tokens of this kind in a request of {@code input} input tokens, USD. */
    BigDecimal cost(long tokens, long input) {
        return tokens <= 0 ? BigDecimal.ZERO : perMillion(input).multiply(BigDecimal.valueOf(tokens)).movePointLeft(6);
    }
}

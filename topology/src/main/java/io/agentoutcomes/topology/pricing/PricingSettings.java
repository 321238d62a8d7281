package io.agentoutcomes.topology.pricing;

import java.math.BigDecimal;

/**
 * How results are priced: the table, and how far a reported cost may be from the computed one before it is counted
 * as a mismatch.
 *
 * @param table     the prices (the shipped table, or a user's file over it: {@code pricing.file})
 * @param tolerance the largest relative difference not counted, e.g. 0.01 for 1 % of the computed cost
 *                  ({@code pricing.mismatch.tolerance})
 */
public record PricingSettings(PriceTable table, BigDecimal tolerance) {
    public static final BigDecimal DEFAULT_TOLERANCE = new BigDecimal("0.01");

    public static PricingSettings defaults() {
        return new PricingSettings(PriceTable.shipped(), DEFAULT_TOLERANCE);
    }
}

package io.agentoutcomes.topology.analytics;

/**
 * Sums of counts (tokens, calls, milliseconds), which are never negative (the input's bounds): saturating, so that
 * past {@link Long#MAX_VALUE} a sum stays there instead of wrapping to a negative number (docs/analytics.md). The live
 * partials, the merge of aggregates, the token normalizer, the GenAI histograms and the figures all add through here.
 */
final class Counts {
    private Counts() {
    }

    /** {@code a + b}, or {@link Long#MAX_VALUE} where that overflows. */
    static long plus(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}

package io.agentoutcomes.app.metrics;

import java.util.Map;

/**
 * One series of one of the GenAI client histograms: its name and attributes (the
 * conventions' names, dotted), buckets and sum; what the Prometheus collector and the OTLP push both read.
 */
record GenAiSeries(String otelName, Map<String, String> attributes, double[] bounds, long[] counts, double sum) {
    static final String TOKEN_USAGE_OTEL = "gen_ai.client.token.usage";
    static final String OPERATION_DURATION_OTEL = "gen_ai.client.operation.duration";

    /** The conventions' unit of this series: {@code {token}} for token usage, seconds for durations. */
    String unit() {
        return otelName.equals(TOKEN_USAGE_OTEL) ? "{token}" : "s";
    }
}

package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.TOO_LARGE;

/**
 * How large one OTLP request may be, in either encoding, before a span of it is mapped: at most {@value #MAX_SPANS}
 * spans, at most {@value #MAX_ATTRIBUTES} attributes on a span or a resource.
 */
final class OtlpLimits {
    /**
     * The most spans one request may carry: above the Collector's batch processor's default batch of 8192 spans; a
     * Collector sending more is told to set {@code send_batch_max_size} (docs/ingestion.md).
     */
    static final int MAX_SPANS = 10_000;
    /** The OpenTelemetry SDKs' own default attribute count limit per span. */
    static final int MAX_ATTRIBUTES = 128;

    private OtlpLimits() {
    }

    /** Refuses a request of more than {@value #MAX_SPANS} spans. */
    static void boundSpans(int spans) {
        if (spans > MAX_SPANS) {
            throw new InvalidInputException(TOO_LARGE, "a request of " + spans + " spans: more than " + MAX_SPANS
                    + " (the Collector's batch processor bounds its batches with send_batch_max_size)");
        }
    }
}

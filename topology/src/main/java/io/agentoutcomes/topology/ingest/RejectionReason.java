package io.agentoutcomes.topology.ingest;

/**
 * Why a record cannot become a canonical record ({@link InvalidInputException}): each reason counted separately, named
 * in the {@code rejected.reason} header of its {@code rejected-input} record.
 */
public enum RejectionReason {
    UNPARSEABLE_JSON("unparseable-json"),
    UNKNOWN_DIALECT("unknown-dialect"),
    MISSING_FIELD("missing-field"),
    WRONG_TYPE("wrong-type"),
    OUT_OF_RANGE("out-of-range"),
    TOO_LARGE("too-large"),
    /** A CloudEvent whose envelope or attributes break the CloudEvents 1.0 spec (its data is judged as any value). */
    INVALID_CLOUDEVENT("invalid-cloudevent"),
    /** An OTLP request in {@code otlp_proto} that is no {@code ExportTraceServiceRequest} (truncated, not protobuf). */
    UNPARSEABLE_PROTOBUF("unparseable-protobuf");

    private final String label;

    RejectionReason(String label) {
        this.label = label;
    }

    /** The label used in the {@code rejected.reason} header and the metrics. */
    public String label() {
        return label;
    }

    /** The name of its sensor in {@link InvalidInputException#METRICS_SCOPE}: {@code rejected-<label>} (metrics {@code -total}, {@code -rate}). */
    public String sensor() {
        return "rejected-" + label;
    }
}

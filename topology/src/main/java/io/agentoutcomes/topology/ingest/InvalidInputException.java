package io.agentoutcomes.topology.ingest;

/** A record that cannot become a canonical record: why, as a kind (for counting) and a message (for people). */
public final class InvalidInputException extends RuntimeException {
    /**
     * The Kafka Streams metrics scope of the rejection sensors: group {@code stream-agent-outcomes-ingest-metrics},
     * one sensor per kind ({@link Kind#sensor()}), tagged with the input topic.
     */
    public static final String METRICS_SCOPE = "agent-outcomes-ingest";

    /** The kinds of bad input, each counted separately. */
    public enum Kind {
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

        Kind(String label) {
            this.label = label;
        }

        /** The label used in the {@code rejected.reason} header and the metrics. */
        public String label() {
            return label;
        }

        /** The name of its sensor in {@link #METRICS_SCOPE}: {@code rejected-<label>} (metrics {@code -total}, {@code -rate}). */
        public String sensor() {
            return "rejected-" + label;
        }
    }

    private final Kind kind;

    public InvalidInputException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public InvalidInputException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}

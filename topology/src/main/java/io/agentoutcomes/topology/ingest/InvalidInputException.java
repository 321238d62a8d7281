package io.agentoutcomes.topology.ingest;

/** A record that cannot become a canonical record: why, as a reason (for counting) and a message (for people). */
public final class InvalidInputException extends RuntimeException {
    /**
     * The Kafka Streams metrics scope of the rejection sensors: group {@code stream-agent-outcomes-ingest-metrics},
     * one sensor per reason ({@link RejectionReason#sensor()}), tagged with the input topic.
     */
    public static final String METRICS_SCOPE = "agent-outcomes-ingest";

    private final RejectionReason kind;

    public InvalidInputException(RejectionReason kind, String message) {
        super(message);
        this.kind = kind;
    }

    public InvalidInputException(RejectionReason kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public RejectionReason kind() {
        return kind;
    }
}

package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.avro.StepResultType;

/**
 * The timeline status of a result type: a compensatable failure has a colour of its own: the job failed all the
 * same, but the step waits for a compensation to undo it, which a permanent one does not.
 */
public enum SegmentStatus {
    OK("ok", "#2e7d32"), RETRYABLE("retryable", "#f9a825"), COMPENSATABLE("compensatable", "#6a1b9a"),
    FAILED("failed", "#c62828");

    private final String label;
    private final String colour;

    SegmentStatus(String label, String colour) {
        this.label = label;
        this.colour = colour;
    }

    public String label() {
        return label;
    }

    public String colour() {
        return colour;
    }

    public static SegmentStatus of(StepResultType type) {
        return switch (type) {
            case SUCCESS -> OK;
            case RETRYABLE_FAILURE -> RETRYABLE;
            case COMPENSATABLE_FAILURE -> COMPENSATABLE;
            case PERMANENT_FAILURE -> FAILED;
        };
    }
}

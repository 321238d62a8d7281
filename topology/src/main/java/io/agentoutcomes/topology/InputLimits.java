package io.agentoutcomes.topology;

/**
 * How large one input record may be. Everything the pipeline writes for a record carries it once (a classified
 * outcome, a retry request, a rejected-input copy) plus a bounded few hundred bytes, so this keeps every output
 * under the producer's {@code max.request.size} (1 MiB by default): with exactly-once, a record too large to write
 * would abort its transaction again at every retry and stop its partition for good.
 *
 * @param maxRecordBytes an input value (Avro or JSON) longer than this goes to {@code rejected-input}, reason
 *                       {@code too-large}, without its value
 */
public record InputLimits(int maxRecordBytes) {
    /** The setting's name, also handed to the exception handlers through the streams configuration. */
    public static final String MAX_RECORD_BYTES_CONFIG = "input.max.record.bytes";

    public InputLimits {
        if (maxRecordBytes < 1024) {
            throw new IllegalArgumentException(MAX_RECORD_BYTES_CONFIG + " must be at least 1024, was " + maxRecordBytes);
        }
    }

    /** 512 KiB: half the default request size, room for what outputs add. */
    public static InputLimits defaults() {
        return new InputLimits(512 * 1024);
    }
}

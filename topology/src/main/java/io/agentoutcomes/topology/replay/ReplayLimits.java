package io.agentoutcomes.topology.replay;

/**
 * How large a job's replay state may grow: it is one record on {@code replay-state} and one store entry, so it must
 * stay well inside the producer's {@code max.request.size} (1 MiB by default) whatever the runners send.
 *
 * @param maxPayloadBytes a node's payload results longer than this (UTF-8 bytes) are kept as a summary with their size
 * @param maxReasonChars  a reason longer than this is cut, saying how long it was
 * @param maxStateBytes   past this (serialized), the largest payloads are summarized too; an event whose job would still
 *                        be larger is rejected, with the reason, instead of stopping the pipeline
 */
public record ReplayLimits(int maxPayloadBytes, int maxReasonChars, int maxStateBytes) {
    public ReplayLimits {
        if (maxPayloadBytes < 64 || maxReasonChars < 16 || maxStateBytes < 4096) {
            throw new IllegalArgumentException("replay limits need payloads of at least 64 bytes, reasons of at least 16 "
                    + "characters and states of at least 4096 bytes");
        }
    }

    /** 16 KiB payloads, 1000-character reasons, 900 000-byte states (under the default 1 MiB request size). */
    public static ReplayLimits defaults() {
        return new ReplayLimits(16 * 1024, 1000, 900_000);
    }
}

package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeAttempt;
import io.agentoutcomes.avro.NodeReplay;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Keeps a job's replay state inside its {@link ReplayLimits}: long payloads become a summary that keeps their size
 * (JSON, so readers that parse payloads still can), long reasons are cut, and if the state is still too large the
 * largest payloads are summarized until it fits. What cannot be made to fit is refused with
 * {@link ReplayStateTooLargeException}. Pure.
 */
public final class ReplayBounds {
    private static final ThreadLocal<SpecificDatumWriter<JobReplayState>> WRITER =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(JobReplayState.class));

    private ReplayBounds() {
    }

    /** A job's replay state too large to keep even with every payload summarized. */
    public static final class ReplayStateTooLargeException extends RuntimeException {
        ReplayStateTooLargeException(String message) {
            super(message);
        }
    }

    /** The summary kept in place of a payload of {@code bytes} UTF-8 bytes. */
    static String summary(int bytes) {
        return "{\"summarized\":true,\"bytes\":" + bytes + "}";
    }

    /** The state within the limits. */
    public static JobReplayState fit(JobReplayState state, ReplayLimits limits) {
        Map<String, String> payloads = new LinkedHashMap<>();
        state.getPayloadResults().forEach((node, payload) -> {
            int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
            payloads.put(node, bytes > limits.maxPayloadBytes() ? summary(bytes) : payload);
        });
        JobReplayState bounded = JobReplayState.newBuilder(state).setPayloadResults(payloads)
                .setNodes(state.getNodes().stream().map(node -> cutReasons(node, limits.maxReasonChars())).toList())
                .build();
        int size = serializedSize(bounded);
        while (size > limits.maxStateBytes()) {
            Optional<Map.Entry<String, String>> largest = payloads.entrySet().stream()
                    .filter(entry -> !entry.getValue().startsWith("{\"summarized\":true"))
                    .max(Comparator.comparingInt(entry -> entry.getValue().length()));
            if (largest.isEmpty()) {
                throw new ReplayStateTooLargeException("the replay state of job " + state.getJobId() + " would be " + size
                        + " bytes with every payload summarized, over replay.max.state.bytes " + limits.maxStateBytes()
                        + " (" + state.getNodes().size() + " nodes)");
            }
            String node = largest.get().getKey();
            payloads.put(node, summary(largest.get().getValue().getBytes(StandardCharsets.UTF_8).length));
            bounded.setPayloadResults(payloads);
            size = serializedSize(bounded);
        }
        return bounded;
    }

    private static NodeReplay cutReasons(NodeReplay node, int maxChars) {
        if (node.getAttempts().stream().noneMatch(a -> a.getReason() != null && a.getReason().length() > maxChars)) {
            return node;
        }
        List<NodeAttempt> attempts = node.getAttempts().stream().map(attempt -> {
            String reason = attempt.getReason();
            if (reason == null || reason.length() <= maxChars) {
                return attempt;
            }
            return NodeAttempt.newBuilder(attempt).setReason(reason.substring(0, maxChars)
                    + "… (cut, " + reason.length() + " characters)").build();
        }).toList();
        return NodeReplay.newBuilder(node).setAttempts(attempts).build();
    }

    static int serializedSize(JobReplayState state) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            WRITER.get().write(state, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.size();
    }
}

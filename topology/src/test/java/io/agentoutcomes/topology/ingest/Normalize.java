package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.topology.StageDriver;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.header.Headers;

/**
 * The normalizers called directly, with the context the ingest stage gives a record read from partition 0 of its JSON
 * topic at {@link #RECORD_TIME}: the exact canonical record, or the exact refusal, without Kafka Streams. Whether a
 * refusal reaches {@code rejected-input} with its headers is the stage's test ({@link IngestStageTest}).
 */
final class Normalize {
    static final Instant RECORD_TIME = StageDriver.T0;

    private Normalize() {
    }

    /** Headers from name/value pairs. */
    static Headers headers(String... nameValues) {
        return StageDriver.headers(nameValues);
    }

    static AgentResult agentResult(String key, String json, Headers headers) {
        return agentResult(key, json, headers, 0);
    }

    /** @param offset the record's offset on {@code agent-results-json} (its result id unless one is given) */
    static AgentResult agentResult(String key, String json, Headers headers, long offset) {
        return AgentResultNormalizer.normalize(bytes(json), context("agent-results-json", key, headers, offset));
    }

    static NodeFinished nodeFinished(String key, String json, Headers headers) {
        return NodeFinishedNormalizer.normalize(bytes(json), context("node-finished-json", key, headers, 0));
    }

    static ContinuationEvaluated continuationEvent(String key, String json, Headers headers) {
        return ContinuationEventNormalizer.normalize(bytes(json), context("continuation-events-json", key, headers, 0));
    }

    /** The reason and message an agent result is refused with (the {@code rejected-input} headers' values). */
    static List<String> agentResultRefusal(String key, String json, Headers headers) {
        AtomicReference<InvalidInputException> refusal = new AtomicReference<>();
        assertThatThrownBy(() -> agentResult(key, json, headers)).isInstanceOfSatisfying(InvalidInputException.class,
                refusal::set);
        return List.of(refusal.get().kind().label(), refusal.get().getMessage());
    }

    private static RecordContext context(String topic, String key, Headers headers, long offset) {
        return new RecordContext(key, headers, topic, 0, offset, RECORD_TIME);
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}

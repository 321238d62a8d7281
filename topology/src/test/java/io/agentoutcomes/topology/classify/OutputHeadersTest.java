package io.agentoutcomes.topology.classify;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.StageDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Input headers reach outcomes-classified, retry-ready (through the scheduler's store) and dead-letter, with ours. */
class OutputHeadersTest {
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private final StageDriver pipeline = StageDriver.pipeline();

    @AfterEach
    void close() {
        pipeline.close();
    }

    private static AgentResult failure(String resultId, String code, RateLimitState rateLimit) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("agent-1").setTaskId("task-1").setAttempt(0)
                .setRateLimit(rateLimit)
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build()).build();
    }

    private void publish(AgentResult result) {
        Headers headers = new RecordHeaders();
        headers.add("traceparent", TRACEPARENT.getBytes(StandardCharsets.UTF_8));
        headers.add("tracestate", "vendor=1".getBytes(StandardCharsets.UTF_8));
        headers.add("agent-id", "agent-1".getBytes(StandardCharsets.UTF_8));
        pipeline.input(pipeline.topics.agentResults).pipeInput(new TestRecord<>(result.getTaskId(), result, headers, T0));
    }

    private static Map<String, String> text(Headers headers) {
        Map<String, String> all = new LinkedHashMap<>();
        for (Header header : headers) {
            all.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        return all;
    }

    @Test
    void aRetriedResultReachesRetryReadyWithItsTraceparentAndTheRetrysIdentity() {
        publish(failure("r-1", "llm-rate-limit", RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(5_000L).build()));
        pipeline.advance(Duration.ofSeconds(6));

        TestRecord<String, ClassifiedOutcome> outcome = pipeline.output(pipeline.topics.outcomesClassified).readRecord();
        assertThat(text(outcome.headers())).containsEntry("traceparent", TRACEPARENT).containsEntry("tracestate", "vendor=1");
        TestRecord<String, RetryRequest> ready = pipeline.output(pipeline.topics.retryReady).readRecord();
        assertThat(text(ready.headers())).containsExactlyInAnyOrderEntriesOf(Map.of(
                "traceparent", TRACEPARENT, "tracestate", "vendor=1", "agent-id", "agent-1",
                "task-id", "task-1", "result-id", "r-1", "attempt", "1",
                "due-at", T0.plusSeconds(5).toString(),
                "origin-topic", pipeline.topics.agentResults.name(), "origin-partition", "0", "origin-offset", "0"));
    }

    @Test
    void aStoppedResultReachesDeadLetterWithItsHeadersAndWhereItCameFrom() {
        publish(failure("r-1", "llm-refusal", null));

        TestRecord<String, ClassifiedOutcome> dead = pipeline.output(pipeline.topics.deadLetter).readRecord();
        assertThat(text(dead.headers())).containsExactlyInAnyOrderEntriesOf(Map.of(
                "traceparent", TRACEPARENT, "tracestate", "vendor=1", "agent-id", "agent-1",
                "task-id", "task-1", "result-id", "r-1", "attempt", "0",
                "origin-topic", pipeline.topics.agentResults.name(), "origin-partition", "0", "origin-offset", "0"));
    }
}

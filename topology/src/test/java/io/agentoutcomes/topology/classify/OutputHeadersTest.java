package io.agentoutcomes.topology.classify;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.StageDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.ByteUtils;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exact headers of each output topic (docs/topics.md#headers): the input's on every outcome, with nothing added;
 * a retry's identity on {@code retry-ready}; provenance only on {@code dead-letter}.
 */
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

    private static Headers input() {
        return StageDriver.headers("traceparent", TRACEPARENT, "tracestate", "vendor=1", "agent-id", "agent-1");
    }

    private void publish(AgentResult result) {
        pipeline.input(pipeline.topics.agentResults).pipeInput(new TestRecord<>(result.getTaskId(), result, input(), T0));
    }

    private static List<String> text(Headers headers) {
        List<String> all = new ArrayList<>();
        for (Header header : headers) {
            all.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
        }
        return all;
    }

    /** The bytes the headers take in a Kafka record batch (DefaultRecord: a varint count, each key and value sized). */
    private static int wireBytes(Headers headers) {
        Header[] all = headers.toArray();
        int bytes = ByteUtils.sizeOfVarint(all.length);
        for (Header header : all) {
            int key = Utils.utf8Length(header.key());
            bytes += ByteUtils.sizeOfVarint(key) + key + ByteUtils.sizeOfVarint(header.value().length) + header.value().length;
        }
        return bytes;
    }

    @Test
    void anOutcomeCarriesTheInputsHeadersAndNothingMore() {
        publish(AgentResult.newBuilder().setResultId("r-1").setAgentId("agent-1").setTaskId("task-1").setAttempt(0)
                .setOutcome(Success.newBuilder().build()).build());

        TestRecord<String, ClassifiedOutcome> outcome = pipeline.output(pipeline.topics.outcomesClassified).readRecord();
        assertThat(text(outcome.headers())).containsExactly("traceparent=" + TRACEPARENT, "tracestate=vendor=1",
                "agent-id=agent-1");
        assertThat(wireBytes(outcome.headers())).isEqualTo(wireBytes(input()));
    }

    @Test
    void aProducersOwnProvenanceHeadersAreNotPassedOnToOutcomes() {
        Headers forged = StageDriver.headers("traceparent", TRACEPARENT, "origin-topic", "payments",
                "origin-partition", "7", "origin-offset", "123456");
        AgentResult success = AgentResult.newBuilder().setResultId("r-1").setAgentId("agent-1").setTaskId("task-1")
                .setAttempt(0).setOutcome(Success.newBuilder().build()).build();
        pipeline.input(pipeline.topics.agentResults).pipeInput(new TestRecord<>("task-1", success, forged, T0));

        assertThat(text(pipeline.output(pipeline.topics.outcomesClassified).readRecord().headers()))
                .containsExactly("traceparent=" + TRACEPARENT);
    }

    @Test
    void aRetriedResultReachesRetryReadyWithItsTraceContextAndTheRetrysIdentityButNoProvenance() {
        publish(failure("r-1", "llm-rate-limit", RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(5_000L).build()));
        pipeline.advance(Duration.ofSeconds(6));

        TestRecord<String, ClassifiedOutcome> outcome = pipeline.output(pipeline.topics.outcomesClassified).readRecord();
        assertThat(text(outcome.headers())).containsExactly("traceparent=" + TRACEPARENT, "tracestate=vendor=1",
                "agent-id=agent-1");
        TestRecord<String, RetryRequest> ready = pipeline.output(pipeline.topics.retryReady).readRecord();
        assertThat(text(ready.headers())).containsExactly("traceparent=" + TRACEPARENT, "tracestate=vendor=1",
                "agent-id=agent-1", "task-id=task-1", "attempt=1", "due-at=" + T0.plusSeconds(5));
        assertThat(ready.value().getResultId()).isEqualTo("r-1");
    }

    @Test
    void aStoppedResultReachesDeadLetterWithItsHeadersAndWhereItCameFrom() {
        publish(failure("r-1", "llm-refusal", null));

        TestRecord<String, ClassifiedOutcome> dead = pipeline.output(pipeline.topics.deadLetter).readRecord();
        assertThat(text(dead.headers())).containsExactly("traceparent=" + TRACEPARENT, "tracestate=vendor=1",
                "agent-id=agent-1", "task-id=task-1", "result-id=r-1", "attempt=0",
                "origin-topic=" + pipeline.topics.agentResults.name(), "origin-partition=0", "origin-offset=0");
        assertThat(text(pipeline.output(pipeline.topics.outcomesClassified).readRecord().headers()))
                .containsExactly("traceparent=" + TRACEPARENT, "tracestate=vendor=1", "agent-id=agent-1");
    }

    @Test
    void aCompensatableNodeFailureReachesCompensationsWithTheInputsHeadersOnly() {
        pipeline.input(pipeline.topics.nodeFinished).pipeInput(new TestRecord<>("job-1", NodeFinished.newBuilder()
                .setJobId("job-1").setNodeId("n1").setResultType(StepResultType.COMPENSATABLE_FAILURE)
                .setReason("upload failed").build(), StageDriver.headers("traceparent", TRACEPARENT), T0));

        assertThat(text(pipeline.output(pipeline.topics.compensations).readRecord().headers()))
                .containsExactly("traceparent=" + TRACEPARENT);
    }

    @Test
    void aResultKeyedOtherwiseKeepsWhereItWasReadThroughTheRepartitionTopic() {
        AgentResult stopped = failure("r-1", "llm-refusal", null);
        pipeline.input(pipeline.topics.agentResults).pipeInput(new TestRecord<>("not-the-task", stopped,
                StageDriver.headers("traceparent", TRACEPARENT), T0));

        List<String> origin = List.of("origin-topic=" + pipeline.topics.agentResults.name(), "origin-partition=0",
                "origin-offset=0");
        TestRecord<String, ClassifiedOutcome> dead = pipeline.output(pipeline.topics.deadLetter).readRecord();
        assertThat(dead.key()).isEqualTo("task-1");
        assertThat(text(dead.headers())).containsExactly("traceparent=" + TRACEPARENT, origin.get(0), origin.get(1),
                origin.get(2), "task-id=task-1", "result-id=r-1", "attempt=0");
        // the one case an outcome carries provenance (docs/topics.md#headers): its own position was lost on re-keying
        assertThat(text(pipeline.output(pipeline.topics.outcomesClassified).readRecord().headers()))
                .containsExactly("traceparent=" + TRACEPARENT, origin.get(0), origin.get(1), origin.get(2));
    }
}

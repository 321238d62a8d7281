package io.agentoutcomes.topology;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 2: an accepted failure whose message quotes a credential (a 401 as the OpenAI Python SDK words it,
 * with the request's {@code Authorization} header in it) puts the credential on no topic: not on the
 * {@code agent-results} ingestion writes, not on {@code outcomes-classified}, not in a dead letter or a retry, whether
 * the result came as JSON or as Avro straight onto {@code agent-results}.
 */
class AcceptedCredentialsTest {
    private static final String TOKEN = "sk-proj-Xq7vR2mN8kL4pT6wY1zA3bC5dE7fG9hJ0iK2lM4nO6pQ8rS";
    /** What a 401 from OpenAI reads like once an agent framework adds the request it sent. */
    private static final String MESSAGE = "Error code: 401 - {'error': {'message': 'Incorrect API key provided: " + TOKEN
            + ". You can find your API key at https://platform.openai.com/account/api-keys.', 'type': "
            + "'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}} (request headers: Authorization: Bearer "
            + TOKEN + ", User-Agent: OpenAI/Python 1.51.0)";
    private static final String SCRUBBED = "Error code: 401 - {'error': {'message': 'Incorrect API key provided: [redacted]"
            + ". You can find your API key at https://platform.openai.com/account/api-keys.', 'type': "
            + "'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}} (request headers: Authorization: "
            + "[redacted], User-Agent: OpenAI/Python 1.51.0)";

    private final StageDriver pipeline = StageDriver.configured((topics, settings) -> AgentOutcomesTopology.build(topics,
            PipelineSettings.defaults(), settings), AcceptedCredentialsTest::settings);

    private static Properties settings(Topics topics) {
        Properties props = new Properties();
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.rejectedInput.name());
        return props;
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    @Test
    void aJsonFailureQuotingABearerTokenReachesNoTopicWithIt() {
        String json = "{\"error\":{\"code\":\"authentication_error\",\"type\":\"AuthenticationError\",\"status_code\":401,"
                + "\"message\":\"" + MESSAGE.replace("'", "\\u0027") + "\"}}";
        pipeline.bytesInput(pipeline.topics.agentResultsJson.name()).pipeInput(StageDriver.textRecord("task-json", json,
                StageDriver.headers("agent-id", "agent-1", "result-id", "r-json"), T0));
        pipeline.advance(Duration.ofMinutes(1));

        List<TestRecord<String, AgentResult>> canonical = pipeline.output(pipeline.topics.agentResults).readRecordsToList();
        assertThat(canonical).singleElement().extracting(r -> ((Failure) r.value().getOutcome()).getError().getMessage())
                .isEqualTo(SCRUBBED);
        assertNothingWrittenCarriesTheToken(canonical.get(0).value().toString());
    }

    @Test
    void anAvroFailureQuotingABearerTokenReachesNoTopicWithIt() {
        AgentResult result = AgentResult.newBuilder().setResultId("r-avro").setAgentId("agent-1").setTaskId("task-avro")
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("authentication_error")
                        .setStatusCode(401).setMessage(MESSAGE).build()).build()).build();
        pipeline.input(pipeline.topics.agentResults).pipeInput(new TestRecord<>("task-avro", result, StageDriver.headers(), T0));
        pipeline.advance(Duration.ofMinutes(1));

        assertNothingWrittenCarriesTheToken("");
    }

    /** The failure is classified, dead-lettered (a 401 is not retried), and its message is in each output scrubbed. */
    private void assertNothingWrittenCarriesTheToken(String alreadyRead) {
        List<String> written = new ArrayList<>();
        written.add(alreadyRead);
        List<ClassifiedOutcome> outcomes = pipeline.output(pipeline.topics.outcomesClassified).readValuesToList();
        List<ClassifiedOutcome> dead = pipeline.output(pipeline.topics.deadLetter).readValuesToList();
        List<RetryRequest> retries = new ArrayList<>(pipeline.output(pipeline.topics.retryReady).readValuesToList());
        pipeline.topics.retryDelay.values().forEach(topic -> retries.addAll(pipeline.output(topic).readValuesToList()));
        outcomes.forEach(o -> written.add(o.toString()));
        dead.forEach(d -> written.add(d.toString()));
        retries.forEach(r -> written.add(r.toString()));
        pipeline.bytesOutput(pipeline.topics.rejectedInput.name()).readRecordsToList().forEach(r -> written.add(r.toString()));

        assertThat(outcomes).singleElement().satisfies(o -> assertThat(o.getReason()).isEqualTo(SCRUBBED));
        assertThat(dead).singleElement().satisfies(d -> assertThat(d.getReason()).isEqualTo(SCRUBBED));
        assertThat(retries).isEmpty();
        assertThat(written).noneMatch(text -> text.contains("Xq7vR2mN8kL4pT6wY1zA3bC5dE7fG9hJ0iK2lM4nO6pQ8rS"));
    }
}

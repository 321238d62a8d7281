package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.InProgress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 000's two output envelopes as its types declare them: {@code OneShotAgentOutput} is {@code {result}} with an
 * {@code AgentResult} (success or error); {@code ConversationalAgentOutput} is {@code {reply, sessionState, result}},
 * all three required, with a {@code StatefulAgentResult} (which may be in progress). An output that is neither goes
 * to {@code rejected-input} with the reason.
 */
class Seed000OutputSchemaTest {
    private final IngestDriver pipeline = new IngestDriver();

    @AfterEach
    void close() {
        pipeline.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no sessionState | {\"reply\":\"Which breed?\",\"result\":{\"status\":\"in-progress\"}} | missing-field | sessionState is required in a conversational output {reply, sessionState, result}",
        "no reply | {\"sessionState\":{\"turn\":2},\"result\":{\"status\":\"in-progress\"}} | missing-field | reply is required in a conversational output {reply, sessionState, result}",
        "null reply | {\"reply\":null,\"sessionState\":{},\"result\":{\"status\":\"success\",\"data\":1}} | missing-field | reply is required in a conversational output {reply, sessionState, result}",
        "reply not a string | {\"reply\":5,\"sessionState\":{},\"result\":{\"status\":\"success\",\"data\":1}} | wrong-type | reply is number 5: expected a string",
        "in progress, neither | {\"result\":{\"status\":\"in-progress\"}} | missing-field | reply and sessionState are required: result.status is in-progress, and only a conversational output {reply, sessionState, result} may be in progress (a one-shot output's result is success or error)",
    })
    void anOutputItsTypeRefusesIsRejectedWithTheReason(String row, String json, String reason, String message) {
        pipeline.agentResult("task-1", json, headers("agent-id", "a-1"));

        assertThat(pipeline.agentResults()).isEmpty();
        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        assertThat(rejected).hasSize(1);
        assertThat(header(rejected.get(0), RejectedInput.REASON)).isEqualTo(reason);
        assertThat(header(rejected.get(0), RejectedInput.MESSAGE)).isEqualTo(message);
    }

    @Test
    void aConversationalOutputWithAllThreeAndAOneShotOutputAreAccepted() {
        pipeline.agentResult("task-1", "{\"reply\":\"Which breed?\",\"sessionState\":{\"turn\":2},"
                + "\"result\":{\"status\":\"in-progress\"}}", headers("agent-id", "a-1"));
        pipeline.agentResult("task-2", "{\"result\":{\"status\":\"success\",\"data\":1}}", headers("agent-id", "a-1"));

        assertThat(pipeline.rejected()).isEmpty();
        List<AgentResult> out = pipeline.agentResults().stream().map(TestRecord::value).toList();
        assertThat(out).hasSize(2);
        assertThat(out.get(0).getReply()).isEqualTo("Which breed?");
        assertThat(out.get(0).getSessionState()).isEqualTo("{\"turn\":2}");
        assertThat(out.get(0).getOutcome()).isEqualTo(InProgress.newBuilder().build());
        assertThat(out.get(1).getReply()).isNull();
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}

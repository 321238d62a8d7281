package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.agentResultRefusal;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.InProgress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 000's two output envelopes as its types declare them: {@code OneShotAgentOutput} is {@code {result}} with an
 * {@code AgentResult} (success or error); {@code ConversationalAgentOutput} is {@code {reply, sessionState, result}},
 * all three required, with a {@code StatefulAgentResult} (which may be in progress). An output that is neither is
 * refused with the reason (which {@code rejected-input} carries).
 */
class Seed000OutputSchemaTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no sessionState | {\"reply\":\"Which breed?\",\"result\":{\"status\":\"in-progress\"}} | missing-field | sessionState is required in a conversational output {reply, sessionState, result}",
        "no reply | {\"sessionState\":{\"turn\":2},\"result\":{\"status\":\"in-progress\"}} | missing-field | reply is required in a conversational output {reply, sessionState, result}",
        "null reply | {\"reply\":null,\"sessionState\":{},\"result\":{\"status\":\"success\",\"data\":1}} | missing-field | reply is required in a conversational output {reply, sessionState, result}",
        "reply not a string | {\"reply\":5,\"sessionState\":{},\"result\":{\"status\":\"success\",\"data\":1}} | wrong-type | reply is number 5: expected a string",
        "in progress, neither | {\"result\":{\"status\":\"in-progress\"}} | missing-field | reply and sessionState are required: result.status is in-progress, and only a conversational output {reply, sessionState, result} may be in progress (a one-shot output's result is success or error)",
    })
    void anOutputItsTypeRefusesIsRejectedWithTheReason(String row, String json, String reason, String message) {
        assertThat(agentResultRefusal("task-1", json, headers("agent-id", "a-1"))).containsExactly(reason, message);
    }

    @Test
    void aConversationalOutputWithAllThreeAndAOneShotOutputAreAccepted() {
        AgentResult conversational = agentResult("task-1", "{\"reply\":\"Which breed?\",\"sessionState\":{\"turn\":2},"
                + "\"result\":{\"status\":\"in-progress\"}}", headers("agent-id", "a-1"));
        AgentResult oneShot = agentResult("task-2", "{\"result\":{\"status\":\"success\",\"data\":1}}",
                headers("agent-id", "a-1"), 1);

        assertThat(conversational.getReply()).isEqualTo("Which breed?");
        assertThat(conversational.getSessionState()).isEqualTo("{\"turn\":2}");
        assertThat(conversational.getOutcome()).isEqualTo(InProgress.newBuilder().build());
        assertThat(oneShot.getReply()).isNull();
    }
}

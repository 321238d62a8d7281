package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.agentResultRefusal;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reasoning (thinking) tokens of flatagents results in each provider's shape, normalized to the contract's one meaning:
 * {@code Usage.reasoningTokens} is the part of {@code outputTokens} spent on reasoning. The provider shapes are their
 * APIs' usage objects: OpenAI Chat Completions' {@code completion_tokens_details}, the Responses API's
 * {@code output_tokens_details}, Gemini's {@code usageMetadata} (thoughts apart from the candidates), Anthropic's usage
 * (no separate count).
 */
class ReasoningTokensTest {

    private static Usage usage(String json) {
        AgentResult result = agentResult("task-1", json, headers("agent-id", "thinker"));
        return result.getExecution().getUsage();
    }

    private static Usage usage(long input, long output, Long reasoning) {
        return Usage.newBuilder().setInputTokens(input).setOutputTokens(output).setReasoningTokens(reasoning).build();
    }

    @Test
    void openAiChatCompletionsReasoningTokensAreReadAndStayInsideTheOutput() {
        assertThat(usage("{\"content\":\"ok\",\"usage\":{\"input_tokens\":100,\"output_tokens\":1200,"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":1024,\"accepted_prediction_tokens\":0}}}"))
                .isEqualTo(usage(100, 1200, 1024L));
    }

    @Test
    void openAiResponsesApiUsageHandedOnAsSeedUsageHasItsReasoningTokensRead() {
        assertThat(usage("{\"content\":\"ok\",\"usage\":{\"input_tokens\":75,\"input_tokens_details\":{\"cached_tokens\":0},"
                + "\"output_tokens\":1186,\"output_tokens_details\":{\"reasoning_tokens\":1024},\"total_tokens\":1261}}"))
                .isEqualTo(Usage.newBuilder(usage(75, 1186, 1024L)).setTotalTokens(1261L).build());
    }

    @Test
    void openAiUsageInProviderDataGivesTheReasoningOfTheSeedUsage() {
        assertThat(usage("{\"content\":\"ok\",\"usage\":{\"input_tokens\":40,\"output_tokens\":500},"
                + "\"provider_data\":{\"provider\":\"openai\",\"model\":\"o3-mini\",\"usage\":{\"prompt_tokens\":40,"
                + "\"completion_tokens\":500,\"completion_tokens_details\":{\"reasoning_tokens\":448}}}}"))
                .isEqualTo(usage(40, 500, 448L));
    }

    @Test
    void geminiThoughtsAreAddedToAnOutputCopiedFromTheCandidates() {
        // Gemini counts 7 thoughts apart from its 5 candidates and bills both as output: 12 output tokens, 7 of them reasoning
        assertThat(usage("{\"content\":\"g\",\"usage\":{\"input_tokens\":11,\"output_tokens\":5,\"total_tokens\":23},"
                + "\"provider_data\":{\"provider\":\"gemini\",\"model\":\"gemini-2.5-flash\",\"usageMetadata\":"
                + "{\"promptTokenCount\":11,\"candidatesTokenCount\":5,\"thoughtsTokenCount\":7,\"totalTokenCount\":23}}}"))
                .isEqualTo(Usage.newBuilder(usage(11, 12, 7L)).setTotalTokens(23L).build());
    }

    @Test
    void geminiThoughtsAreNotAddedAgainToAnOutputThatAlreadyHoldsThem() {
        assertThat(usage("{\"content\":\"g\",\"usage\":{\"input_tokens\":11,\"output_tokens\":12},"
                + "\"provider_data\":{\"usageMetadata\":{\"candidatesTokenCount\":5,\"thoughtsTokenCount\":7}}}"))
                .isEqualTo(usage(11, 12, 7L));
    }

    @Test
    void geminiAsItsPythonSdkWritesItAndWithoutCandidatesIsAllThoughts() {
        // Gemini leaves out a count of 0: a response cut off while thinking has no candidatesTokenCount
        assertThat(usage("{\"content\":\"\",\"finish_reason\":\"length\",\"usage\":{\"input_tokens\":30},"
                + "\"provider_data\":{\"usage_metadata\":{\"prompt_token_count\":30,\"thoughts_token_count\":1024}}}"))
                .isEqualTo(Usage.newBuilder().setInputTokens(30L).setOutputTokens(1024L).setReasoningTokens(1024L).build());
    }

    @Test
    void anthropicUsageHasNoSeparateThinkingCountSoTheReasoningIsUnknown() {
        assertThat(usage("{\"content\":\"c\",\"usage\":{\"input_tokens\":20,\"output_tokens\":900,\"cache_read_tokens\":5},"
                + "\"provider_data\":{\"provider\":\"anthropic\",\"usage\":{\"input_tokens\":20,\"output_tokens\":900,"
                + "\"cache_read_input_tokens\":5,\"cache_creation_input_tokens\":0}}}"))
                .isEqualTo(Usage.newBuilder(usage(20, 900, null)).setCacheReadTokens(5L).build());
    }

    @Test
    void aResultWithReasoningIsTheWholeCanonicalRecordWithNothingElseChanged() {
        AgentResult result = agentResult("task-1", "{\"content\":\"ok\",\"usage\":{\"output_tokens\":9,"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":4}}}", headers("agent-id", "thinker"));
        assertThat(result).isEqualTo(AgentResult.newBuilder().setResultId("agent-results-json/0/0").setAgentId("thinker")
                .setTaskId("task-1").setDialect(Dialect.FLATAGENTS).setRecordTimestamp(Normalize.RECORD_TIME.toEpochMilli())
                .setExecution(ExecutionMetadata.newBuilder().setUsage(Usage.newBuilder().setOutputTokens(9L)
                        .setReasoningTokens(4L).build()).build())
                .setOutcome(Success.newBuilder().setContent("ok").build()).build());
    }

    @Test
    void reasoningCountsAreHeldToTheBoundsOfEveryTokenCount() {
        assertThat(agentResultRefusal("task-1", "{\"usage\":{\"output_tokens\":3,\"completion_tokens_details\":"
                + "{\"reasoning_tokens\":-1}}}", headers("agent-id", "a")))
                .isEqualTo(List.of("out-of-range", "usage.completion_tokens_details.reasoning_tokens is -1: must not be negative"));
        assertThat(agentResultRefusal("task-1", "{\"usage\":{\"output_tokens\":3},\"provider_data\":{\"usageMetadata\":"
                + "{\"thoughtsTokenCount\":2.5}}}", headers("agent-id", "a")))
                .isEqualTo(List.of("wrong-type",
                        "provider_data.usageMetadata.thoughtsTokenCount is 2.5: expected a whole number of at most 19 digits"));
    }

    @Test
    void avroReasoningTokensMustNotBeNegative() {
        AgentResult result = AgentResult.newBuilder().setResultId("r").setAgentId("a").setTaskId("t").setDialect(Dialect.NATIVE)
                .setExecution(ExecutionMetadata.newBuilder().setUsage(Usage.newBuilder().setReasoningTokens(-2L).build()).build())
                .setOutcome(Success.newBuilder().build()).build();
        assertThatThrownBy(() -> InputBounds.check(result)).isInstanceOf(InvalidInputException.class)
                .hasMessage("execution.usage.reasoningTokens is -2: must not be negative");
    }
}

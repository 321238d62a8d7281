package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;

import io.agentoutcomes.avro.Usage;
import java.util.List;
import java.util.stream.Stream;

/**
 * The reasoning (thinking) tokens of a flatagents result, as its provider reports them, counted the contract's one way:
 * inside {@code outputTokens} ({@code Usage.reasoningTokens}, docs/analytics.md). Seed 003's {@code usage} has no
 * member for them, so they are read from the provider's own usage object where the agent passed it on: {@code usage}
 * itself (an adapter handing on OpenAI's usage, whose names seed 003's follow), or {@code provider_data.usage} /
 * {@code provider_data.usageMetadata} (Gemini's name; {@code usage_metadata} as its Python SDK writes it):
 * <ul>
 *   <li>OpenAI Chat Completions {@code completion_tokens_details.reasoning_tokens}, Responses
 *       {@code output_tokens_details.reasoning_tokens}: already inside the output count;</li>
 *   <li>Gemini {@code thoughtsTokenCount}: apart from {@code candidatesTokenCount} and billed as output, so an output
 *       count the agent copied from {@code candidatesTokenCount} (or left out) gets the thoughts added;</li>
 *   <li>Anthropic: its usage has no separate count (thinking is inside {@code output_tokens}): none.</li>
 * </ul>
 * Counts are read as every count is: whole, not negative, at most 19 digits.
 */
final class ReasoningTokens {
    /** OpenAI's detail objects that hold {@code reasoning_tokens}: Chat Completions', then the Responses API's. */
    private static final List<String> OPENAI_DETAILS = List.of("completion_tokens_details", "output_tokens_details");

    private ReasoningTokens() {
    }

    /** The usage with its reasoning tokens, and Gemini's thoughts inside its output; as it was when none is reported. */
    static Usage complete(Usage usage, JsonFields seedUsage, JsonFields provider) {
        Long openAi = openAi(seedUsage);
        if (openAi != null) {
            return Usage.newBuilder(usage).setReasoningTokens(openAi).build();
        }
        List<JsonFields> providerUsages = provider == null ? List.of()
                : Stream.of("usage", "usageMetadata", "usage_metadata").map(provider::object)
                        .filter(u -> u != null).toList();
        for (JsonFields providerUsage : providerUsages) {
            Long reasoning = openAi(providerUsage);
            if (reasoning != null) {
                return Usage.newBuilder(usage).setReasoningTokens(reasoning).build();
            }
            Long thoughts = either(providerUsage, "thoughtsTokenCount", "thoughts_token_count");
            if (thoughts != null) {
                return gemini(usage, thoughts, providerUsage);
            }
        }
        return usage;
    }

    private static Long openAi(JsonFields usage) {
        for (String details : OPENAI_DETAILS) {
            JsonFields fields = usage.object(details);
            Long reasoning = fields == null ? null : fields.count("reasoning_tokens");
            if (reasoning != null) {
                return reasoning;
            }
        }
        return null;
    }

    /**
     * Gemini counts thoughts apart from the candidates: an output count equal to the candidates' (copied from them),
     * or none, has them added; any other output count is taken to include them already (an adapter that added them).
     */
    private static Usage gemini(Usage usage, long thoughts, JsonFields geminiUsage) {
        Long candidates = either(geminiUsage, "candidatesTokenCount", "candidates_token_count");
        long visible = candidates == null ? 0 : candidates;
        Long output = usage.getOutputTokens();
        Usage.Builder completed = Usage.newBuilder(usage).setReasoningTokens(thoughts);
        if (output == null || output == visible) {
            try {
                completed.setOutputTokens(Math.addExact(visible, thoughts));
            } catch (ArithmeticException e) {
                throw new InvalidInputException(OUT_OF_RANGE, geminiUsage.at("thoughtsTokenCount") + " is " + thoughts
                        + ": with the output's " + visible + " more than 9223372036854775807 tokens");
            }
        }
        return completed.build();
    }

    private static Long either(JsonFields fields, String camel, String snake) {
        Long count = fields.count(camel);
        return count != null ? count : fields.count(snake);
    }
}

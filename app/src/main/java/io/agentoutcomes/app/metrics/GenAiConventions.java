package io.agentoutcomes.app.metrics;

import io.agentoutcomes.topology.analytics.Dimension;
import java.util.Locale;
import java.util.Map;

/**
 * The OpenTelemetry GenAI semantic conventions the domain meters follow: attribute names (Micrometer writes their dots
 * as underscores for Prometheus, {@code gen_ai.provider.name} as {@code gen_ai_provider_name}, as the OpenTelemetry
 * to Prometheus conversion does) and the well-known values of {@code gen_ai.provider.name}, mapped from the provider
 * names results carry. {@code GenAiConventionsTest} checks the names and values against OpenTelemetry's own
 * semantic-conventions constants.
 */
public final class GenAiConventions {
    public static final String PROVIDER_NAME = Dimension.PROVIDER.attribute();
    public static final String REQUEST_MODEL = Dimension.MODEL.attribute();
    public static final String AGENT_ID = Dimension.AGENT.attribute();
    public static final String TOKEN_TYPE = "gen_ai.token.type";
    public static final String TOKEN_TYPE_INPUT = "input";
    public static final String TOKEN_TYPE_OUTPUT = "output";
    /**
     * A custom {@code gen_ai.token.type} (the conventions allow one): tokens of results that report only a total, so
     * that {@code sum()} over the token types is every token (docs/analytics.md, "Figures").
     */
    public static final String TOKEN_TYPE_UNKNOWN = "unknown";
    /** Required on the GenAI metrics by the conventions. */
    public static final String OPERATION_NAME = "gen_ai.operation.name";
    /** The operation of an agent's result. */
    public static final String OPERATION_INVOKE_AGENT = "invoke_agent";
    /**
     * A custom {@code gen_ai.operation.name} (the conventions allow one; 1.37 has no well-known value for it): the
     * outcomes of workflow nodes, aggregated under the agent id {@code _workflow}.
     */
    public static final String OPERATION_INVOKE_WORKFLOW = "invoke_workflow";
    public static final String ERROR_TYPE = "error.type";

    /** Provider names as results spell them (lower case, '-', '_', ' ' and '.' dropped) to the well-known values. */
    private static final Map<String, String> WELL_KNOWN = Map.ofEntries(
            Map.entry("openai", "openai"),
            Map.entry("anthropic", "anthropic"),
            Map.entry("claude", "anthropic"),
            Map.entry("azure", "azure.ai.openai"),
            Map.entry("azureopenai", "azure.ai.openai"),
            Map.entry("azureaiopenai", "azure.ai.openai"),
            Map.entry("azureaiinference", "azure.ai.inference"),
            Map.entry("bedrock", "aws.bedrock"),
            Map.entry("awsbedrock", "aws.bedrock"),
            Map.entry("amazonbedrock", "aws.bedrock"),
            Map.entry("gemini", "gcp.gemini"),
            Map.entry("gcpgemini", "gcp.gemini"),
            Map.entry("google", "gcp.gemini"),
            Map.entry("googleaistudio", "gcp.gemini"),
            Map.entry("vertex", "gcp.vertex_ai"),
            Map.entry("vertexai", "gcp.vertex_ai"),
            Map.entry("gcpvertexai", "gcp.vertex_ai"),
            Map.entry("googlevertexai", "gcp.vertex_ai"),
            Map.entry("gcpgenai", "gcp.gen_ai"),
            Map.entry("cohere", "cohere"),
            Map.entry("deepseek", "deepseek"),
            Map.entry("groq", "groq"),
            Map.entry("ibmwatsonxai", "ibm.watsonx.ai"),
            Map.entry("watsonx", "ibm.watsonx.ai"),
            Map.entry("watsonxai", "ibm.watsonx.ai"),
            Map.entry("mistral", "mistral_ai"),
            Map.entry("mistralai", "mistral_ai"),
            Map.entry("moonshot", "moonshot_ai"),
            Map.entry("moonshotai", "moonshot_ai"),
            Map.entry("perplexity", "perplexity"),
            Map.entry("xai", "x_ai"),
            Map.entry("grok", "x_ai"));

    /** What a renamed name names: an attribute, or a value of {@code gen_ai.provider.name} or {@code gen_ai.token.type}. */
    public enum Kind { ATTRIBUTE, PROVIDER_NAME, TOKEN_TYPE }

    /**
     * The names and values the conventions have renamed, the old one to the one in use now (docs/analytics.md,
     * "Renamed in the conventions"); {@link #current} and {@link #providerName} read it. A name renamed twice has a row
     * per old name, each to the newest.
     */
    public enum Renamed {
        SYSTEM(Kind.ATTRIBUTE, "gen_ai.system", "gen_ai.provider.name"),
        PROMPT_TOKENS(Kind.ATTRIBUTE, "gen_ai.usage.prompt_tokens", "gen_ai.usage.input_tokens"),
        COMPLETION_TOKENS(Kind.ATTRIBUTE, "gen_ai.usage.completion_tokens", "gen_ai.usage.output_tokens"),
        CACHE_READ_FLAT(Kind.ATTRIBUTE, "gen_ai.usage.cache_read_input_tokens", "gen_ai.usage.cache_read.input_tokens"),
        CACHE_CREATION_FLAT(Kind.ATTRIBUTE, "gen_ai.usage.cache_creation_input_tokens",
                "gen_ai.usage.cache_write.input_tokens"),
        CACHE_CREATION(Kind.ATTRIBUTE, "gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_write.input_tokens"),
        OPENAI_REQUEST_SEED(Kind.ATTRIBUTE, "gen_ai.openai.request.seed", "gen_ai.request.seed"),
        OPENAI_RESPONSE_FORMAT(Kind.ATTRIBUTE, "gen_ai.openai.request.response_format", "gen_ai.output.type"),
        AZ_AI_OPENAI(Kind.PROVIDER_NAME, "az.ai.openai", "azure.ai.openai"),
        AZ_AI_INFERENCE(Kind.PROVIDER_NAME, "az.ai.inference", "azure.ai.inference"),
        GEMINI(Kind.PROVIDER_NAME, "gemini", "gcp.gemini"),
        VERTEX_AI(Kind.PROVIDER_NAME, "vertex_ai", "gcp.vertex_ai"),
        XAI(Kind.PROVIDER_NAME, "xai", "x_ai"),
        COMPLETION(Kind.TOKEN_TYPE, "completion", "output");

        private final Kind kind;
        private final String old;
        private final String now;

        Renamed(Kind kind, String old, String now) {
            this.kind = kind;
            this.old = old;
            this.now = now;
        }

        public Kind kind() {
            return kind;
        }

        public String old() {
            return old;
        }

        public String now() {
            return now;
        }

        /** The name in use now for a name of that kind: its new name if the conventions renamed it, else itself. */
        public static String current(Kind kind, String name) {
            for (Renamed renamed : values()) {
                if (renamed.kind == kind && renamed.old.equals(name)) {
                    return renamed.now;
                }
            }
            return name;
        }
    }

    private GenAiConventions() {
    }

    /**
     * The {@code gen_ai.provider.name} of a provider as a result names it: an old {@code gen_ai.system} value renamed
     * ({@link Renamed}: {@code az.ai.openai} is {@code azure.ai.openai}), else the well-known value where one applies
     * ({@code Azure-OpenAI} is {@code azure.ai.openai}), else the name itself in lower case (the conventions allow a
     * custom value; {@code cerebras}, {@code together} and {@code unknown} stay as they are).
     */
    public static String providerName(String provider) {
        String lower = provider == null || provider.isBlank() ? "unknown"
                : Renamed.current(Kind.PROVIDER_NAME, provider.trim().toLowerCase(Locale.ROOT));
        String compact = lower.replaceAll("[-_ .]", "");
        return WELL_KNOWN.getOrDefault(compact, lower);
    }
}

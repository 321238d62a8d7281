package io.agentoutcomes.topology.ingest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The span attributes the OTLP dialect reads, each under every name the GenAI semantic conventions (and the
 * instrumentations that predate them) have given it, the current name first: the one alias table. When a span carries
 * two names of one attribute, the earlier in its list wins. A span's own attributes win over its resource's.
 */
enum OtlpAttribute {
    OPERATION("gen_ai.operation.name"),
    /** The agent: its id, else its name. */
    AGENT("gen_ai.agent.id", "gen_ai.agent.name"),
    /** Not a convention's: this service's own, for a producer that knows its task (else the trace decides). */
    TASK("agent_outcomes.task.id"),
    /** This service's own; else the HTTP resend count the conventions define (0 on the first try). */
    ATTEMPT("agent_outcomes.attempt", "http.request.resend_count"),
    /** {@code gen_ai.system} was renamed {@code gen_ai.provider.name} (semantic conventions 1.37). */
    PROVIDER("gen_ai.provider.name", "gen_ai.system"),
    MODEL("gen_ai.response.model", "gen_ai.request.model"),
    REQUEST_ID("gen_ai.response.id"),
    /** {@code prompt_tokens} was renamed {@code input_tokens} (1.27); the conventions count cached tokens inside it. */
    INPUT_TOKENS("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
    /** {@code completion_tokens} was renamed {@code output_tokens} (1.27). */
    OUTPUT_TOKENS("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"),
    /** OpenLLMetry's flat names came first; then {@code input_tokens.cached}; now {@code cache_read.input_tokens}. */
    CACHE_READ_TOKENS("gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.input_tokens.cached",
            "gen_ai.usage.cache_read_input_tokens"),
    /** {@code cache_creation} was renamed {@code cache_write}; OpenLLMetry's flat name came first. */
    CACHE_WRITE_TOKENS("gen_ai.usage.cache_write.input_tokens", "gen_ai.usage.cache_creation.input_tokens",
            "gen_ai.usage.input_tokens.cache_write", "gen_ai.usage.cache_creation_input_tokens"),
    REASONING_TOKENS("gen_ai.usage.reasoning.output_tokens", "gen_ai.usage.output_tokens.reasoning",
            "gen_ai.usage.reasoning_tokens"),
    TOTAL_TOKENS("gen_ai.usage.total_tokens", "llm.usage.total_tokens"),
    ERROR_TYPE("error.type"),
    /** {@code http.status_code} was renamed {@code http.response.status_code} (1.21). */
    HTTP_STATUS("http.response.status_code", "http.status_code"),
    TOOL_NAME("gen_ai.tool.name"),
    /** The resource's service: the agent when the spans name none. */
    SERVICE("service.name");

    /** Every name of every attribute, to its attribute and its rank among that attribute's names. */
    private static final Map<String, Name> BY_NAME = new HashMap<>();

    static {
        for (OtlpAttribute attribute : values()) {
            for (int rank = 0; rank < attribute.names.size(); rank++) {
                BY_NAME.put(attribute.names.get(rank), new Name(attribute, rank));
            }
        }
    }

    private final List<String> names;

    OtlpAttribute(String... names) {
        this.names = List.of(names);
    }

    /** Its names, the current first. */
    List<String> names() {
        return names;
    }

    /** The attribute a key names, with the key's rank among its names; null for a key the dialect does not read. */
    static Name named(String key) {
        return BY_NAME.get(key);
    }

    /** One name of an attribute: which, and how it ranks (0 is the current name). */
    record Name(OtlpAttribute attribute, int rank) {
    }
}

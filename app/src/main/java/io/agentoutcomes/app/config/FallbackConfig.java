package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.fallback.FallbackChains.Chain;
import io.agentoutcomes.topology.fallback.FallbackChains.Kind;
import io.agentoutcomes.topology.fallback.FallbackChains.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The declared fallback chains (issue 33; families of the retry policy's settings) as the topology's {@link FallbackChains}:
 *
 * <pre>
 * fallback.&lt;provider&gt;/&lt;model&gt;=&lt;provider&gt;/&lt;model&gt;,...          circuit open, request window or daily limit exhausted
 * fallback.context.&lt;provider&gt;/&lt;model&gt;=&lt;provider&gt;/&lt;model&gt;,...  llm-token-limit: a larger model
 * </pre>
 *
 * A name is split at its first {@code /}, so a model may hold one ({@code openrouter/meta-llama/llama-3.3-70b}). A
 * setting that is not of this form, a chain that loops or is longer than {@value FallbackChains#MAX_LENGTH} is refused
 * at start, naming the setting.
 */
public final class FallbackConfig {
    static final String PREFIX = Kind.GENERAL.prefix();
    static final String CONTEXT_PREFIX = Kind.CONTEXT.prefix();
    private static final String FORM = "<provider>/<model>, e.g. anthropic/claude-sonnet-4";

    /** The settings of the chains, declared as families of the retry policy's settings (the settings table lists them). */
    static final List<SettingFamily> FAMILIES = List.of(
            new SettingFamily("fallback.context.<provider>/<model>", "fallback.context.openai/gpt-4o-mini",
                    Headings.POLICY, Type.LIST, "1 to " + FallbackChains.MAX_LENGTH + " of " + FORM, "no chain: "
                    + "llm-token-limit is not retried (seed 000)", "A context-window chain: a failure of the model with "
                    + "llm-token-limit is retried at once on the chain's first model, with the setting as its rule "
                    + "(docs/classification.md, \"Fallback models\"). Its variable holds a '/': a shell's export refuses it, env and container environments take it.",
                    name -> name.startsWith(CONTEXT_PREFIX)),
            new SettingFamily("fallback.<provider>/<model>", "fallback.openai/gpt-4o", Headings.POLICY, Type.LIST,
                    "1 to " + FallbackChains.MAX_LENGTH + " of " + FORM, "no chain: retries wait for their own model",
                    "A fallback chain: a due retry of the model whose circuit is open, or whose request window or daily limit is "
                    + "exhausted, is re-run on the first model of the chain that can serve it, under that model's own pacing "
                    + "and circuit (docs/classification.md, \"Fallback models\").",
                    name -> name.startsWith(PREFIX) && !name.startsWith(CONTEXT_PREFIX)));

    private FallbackConfig() {
    }

    /** @param families the settings of the families, as given (other families' among them) */
    public static FallbackChains parse(Map<String, String> families) {
        List<Chain> chains = new ArrayList<>();
        new TreeMap<>(families).forEach((key, value) -> {
            if (key.startsWith(PREFIX)) {
                Kind kind = key.startsWith(CONTEXT_PREFIX) ? Kind.CONTEXT : Kind.GENERAL;
                chains.add(chain(key, kind, value));
            }
        });
        try {
            return new FallbackChains(chains);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(e.getMessage());
        }
    }

    private static Chain chain(String key, Kind kind, String value) {
        Model from = model(key, key.substring(kind.prefix().length()), "its name must be " + kind.prefix() + FORM.replace(", e.g.", ","));
        List<Model> to = new ArrayList<>();
        for (String entry : (value == null ? "" : value).split(",", -1)) {
            to.add(model(key, entry, "its value must be a list of " + FORM));
        }
        return new Chain(kind, from, to);
    }

    private static Model model(String key, String name, String form) {
        int slash = name.indexOf('/');
        try {
            if (slash < 0) {
                throw new IllegalArgumentException("no '/' in '" + name.trim() + "'");
            }
            return new Model(name.substring(0, slash), name.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new ConfigError(key + ": " + form + " (" + e.getMessage() + ")");
        }
    }
}

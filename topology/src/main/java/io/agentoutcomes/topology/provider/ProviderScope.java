package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.ProviderData;
import java.util.Locale;

/**
 * What a provider's budget and circuit are kept for: a provider, or a provider and a model, as results name them
 * ({@code execution.provider} and {@code execution.model}, else {@code provider_data}). Names are compared trimmed and
 * in lower case, so {@code OpenAI} and {@code openai} are one scope.
 *
 * @param provider the provider
 * @param model    the model, or null where the scope is the provider alone
 */
public record ProviderScope(String provider, String model) {
    /** How finely budgets and circuits are kept. */
    public enum By {
        /** One per provider: a provider's outage or budget covers all its models. */
        PROVIDER,
        /** One per provider and model: providers budget most limits per model. */
        PROVIDER_MODEL
    }

    /** The longest provider or model name kept as a scope; longer ones are cut (a bound on state keys). */
    static final int MAX_NAME_CHARS = 128;
    private static final char SEPARATOR = '\u001f';

    /** The scope of a result, or null where it names no provider. */
    public static ProviderScope of(AgentResult result, By by) {
        String provider = name(rawProvider(result));
        if (provider == null) {
            return null;
        }
        return new ProviderScope(provider, by == By.PROVIDER ? null : name(rawModel(result)));
    }

    /** The provider as the result spells it ({@code execution}, else {@code provider_data}), or null. */
    static String rawProvider(AgentResult result) {
        if (result == null) {
            return null;
        }
        ExecutionMetadata execution = result.getExecution();
        ProviderData data = result.getProviderData();
        return present(execution == null ? null : execution.getProvider(), data == null ? null : data.getProvider());
    }

    /** The model as the result spells it ({@code execution}, else {@code provider_data}), or null. */
    static String rawModel(AgentResult result) {
        ExecutionMetadata execution = result.getExecution();
        ProviderData data = result.getProviderData();
        return present(execution == null ? null : execution.getModel(), data == null ? null : data.getModel());
    }

    /** The record key and store key of the scope. */
    public String key() {
        return model == null ? provider : provider + SEPARATOR + model;
    }

    @Override
    public String toString() {
        return model == null ? provider : provider + "/" + model;
    }

    private static String present(String first, String second) {
        return first != null && !first.isBlank() ? first : second;
    }

    /** A provider or model name as scopes compare it: trimmed, lower case, at most {@value #MAX_NAME_CHARS} characters. */
    static String name(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        String trimmed = name.trim().toLowerCase(Locale.ROOT);
        return trimmed.length() <= MAX_NAME_CHARS ? trimmed : trimmed.substring(0, MAX_NAME_CHARS);
    }
}

package io.agentoutcomes.topology.fallback;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The declared fallback chains (issue 33), as LiteLLM's router declares {@code fallbacks} and
 * {@code context_window_fallbacks}: for a model, the models its retries are re-run on instead, in order. A
 * {@link Kind#GENERAL} chain is taken when the model cannot serve (its circuit open, its request window or daily limit
 * exhausted), a {@link Kind#CONTEXT} chain when a request was too large for it ({@code llm-token-limit}). Checked once,
 * when built: a chain names at least one and at most {@value #MAX_LENGTH} models, none twice and not its own, and no
 * chain of a kind leads back to where it started through the others of its kind. Names are compared trimmed and in
 * lower case, as the provider gate's scopes are.
 */
public final class FallbackChains {
    /** The most models one chain names. */
    public static final int MAX_LENGTH = 5;
    /** The most chains of both kinds together (a bound on what the gate and the classifier look up). */
    public static final int MAX_CHAINS = 1_000;
    /** The longest provider or model name, as the gate keeps scopes. */
    public static final int MAX_NAME_CHARS = 128;
    /** No chains: every decision as before issue 33. */
    public static final FallbackChains NONE = new FallbackChains(List.of());

    /** Which failures a chain rescues, and the prefix of its setting. */
    public enum Kind {
        /** The model cannot serve now: circuit open, request window or daily limit exhausted. */
        GENERAL("fallback."),
        /** The request did not fit the model's context window ({@code llm-token-limit}). */
        CONTEXT("fallback.context.");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }

        /** The setting's prefix, e.g. {@code fallback.context.}. */
        public String prefix() {
            return prefix;
        }
    }

    /** A provider and one of its models, in lower case; written {@code provider/model}. */
    public record Model(String provider, String model) {
        public Model {
            provider = name(provider, "provider");
            model = name(model, "model");
        }

        @Override
        public String toString() {
            return provider + "/" + model;
        }

        private static String name(String name, String what) {
            String trimmed = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
            if (trimmed.isEmpty() || trimmed.length() > MAX_NAME_CHARS) {
                throw new IllegalArgumentException("a " + what + " name of 1 to " + MAX_NAME_CHARS + " characters, was '" + name + "'");
            }
            return trimmed;
        }
    }

    /**
     * One declared chain.
     *
     * @param kind what it rescues
     * @param from the model whose retries it takes
     * @param to   the models to re-run them on, in order
     */
    public record Chain(Kind kind, Model from, List<Model> to) {
        public Chain {
            to = List.copyOf(to);
        }

        /** The setting that declared it, as a decision's rule and a retry's reason name it. */
        public String setting() {
            StringBuilder text = new StringBuilder(kind.prefix()).append(from).append('=');
            for (int i = 0; i < to.size(); i++) {
                text.append(i == 0 ? "" : ",").append(to.get(i));
            }
            return text.toString();
        }
    }

    private final Map<Kind, Map<Model, Chain>> chains = new HashMap<>();

    /** The chains, checked; an {@link IllegalArgumentException} names the setting at fault. */
    public FallbackChains(List<Chain> declared) {
        if (declared.size() > MAX_CHAINS) {
            throw new IllegalArgumentException("at most " + MAX_CHAINS + " fallback chains, were " + declared.size());
        }
        for (Kind kind : Kind.values()) {
            chains.put(kind, new LinkedHashMap<>());
        }
        for (Chain chain : declared) {
            if (chain.to().isEmpty() || chain.to().size() > MAX_LENGTH) {
                throw new IllegalArgumentException(chain.setting() + ": a chain names 1 to " + MAX_LENGTH + " models, this one "
                        + chain.to().size());
            }
            Set<Model> seen = new HashSet<>(List.of(chain.from()));
            for (Model model : chain.to()) {
                if (!seen.add(model)) {
                    throw new IllegalArgumentException(chain.setting() + ": loops, " + model + " is named twice or is the model itself");
                }
            }
            if (chains.get(chain.kind()).put(chain.from(), chain) != null) {
                throw new IllegalArgumentException(chain.setting() + ": " + chain.kind().prefix() + chain.from() + " is declared twice");
            }
        }
        for (Kind kind : Kind.values()) {
            for (Chain chain : chains.get(kind).values()) {
                refuseLoop(chain, chain.from(), new ArrayList<>(List.of(chain.setting())), new HashSet<>());
            }
        }
    }

    /** Refuses a chain from which another chain of its kind leads back to {@code start}. */
    private void refuseLoop(Chain chain, Model start, List<String> path, Set<Model> visited) {
        for (Model next : chain.to()) {
            if (next.equals(start)) {
                throw new IllegalArgumentException(path.get(0) + ": loops back to " + start + " through " + String.join(" then ", path));
            }
            Chain onward = chains.get(chain.kind()).get(next);
            if (onward != null && visited.add(next)) {
                path.add(onward.setting());
                refuseLoop(onward, start, path, visited);
                path.remove(path.size() - 1);
            }
        }
    }

    /** The chain of a kind declared for a model, if any; null names find none. */
    public Optional<Chain> chain(Kind kind, String provider, String model) {
        if (provider == null || model == null || chains.get(kind).isEmpty()) {
            return Optional.empty();
        }
        String p = provider.trim().toLowerCase(Locale.ROOT);
        String m = model.trim().toLowerCase(Locale.ROOT);
        if (p.isEmpty() || m.isEmpty() || p.length() > MAX_NAME_CHARS || m.length() > MAX_NAME_CHARS) {
            return Optional.empty();
        }
        return Optional.ofNullable(chains.get(kind).get(new Model(p, m)));
    }

    /** Every chain of a kind, in the order declared. */
    public List<Chain> all(Kind kind) {
        return List.copyOf(chains.get(kind).values());
    }

    public boolean isEmpty() {
        return chains.values().stream().allMatch(Map::isEmpty);
    }

    @Override
    public String toString() {
        List<String> settings = new ArrayList<>();
        chains.values().forEach(byModel -> byModel.values().forEach(chain -> settings.add(chain.setting())));
        return settings.toString();
    }
}

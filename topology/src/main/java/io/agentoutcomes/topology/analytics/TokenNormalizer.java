package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.Usage;
import java.util.Locale;
import java.util.Set;

/**
 * Cache-token conventions differ by provider: OpenAI-style APIs count cached prompt tokens inside
 * {@code input_tokens} (prompt_tokens includes cached_tokens), Anthropic counts them apart
 * ({@code input_tokens} excludes cache reads and writes). Normalized here to uncached input + cache read + cache write
 * + output, so a cached token is never counted twice and never dropped. Reasoning tokens are a part of the output
 * (the contract's {@code Usage.reasoningTokens}), counted up to the output they are part of, never added to it.
 */
public final class TokenNormalizer {
    /** Providers whose input token count includes the cached tokens. */
    static final Set<String> CACHE_INCLUDED_IN_INPUT = Set.of("openai", "azure", "azure-openai", "cerebras", "groq",
            "together", "fireworks", "deepseek", "mistral", "google", "gemini", "vertex", "xai", "openrouter");
    /** Providers whose input token count excludes the cached tokens. */
    static final Set<String> CACHE_EXCLUDED_FROM_INPUT = Set.of("anthropic", "bedrock", "claude");

    /** Normalized token counts; {@code reasoning} is a part of {@code output}, not beside it. */
    public record Tokens(long input, long output, long reasoning, long cacheRead, long cacheWrite, long total,
                         long apiCalls) {
        static final Tokens NONE = new Tokens(0, 0, 0, 0, 0, 0, 0);
    }

    private TokenNormalizer() {
    }

    public static Tokens normalize(Usage usage, String provider) {
        if (usage == null) {
            return Tokens.NONE;
        }
        long input = value(usage.getInputTokens());
        long output = value(usage.getOutputTokens());
        long cacheRead = value(usage.getCacheReadTokens());
        long cacheWrite = value(usage.getCacheWriteTokens());
        long cached = Counts.plus(cacheRead, cacheWrite);
        if (includesCache(provider, input, cached)) {
            input = Math.max(0, input - cached);
        }
        long total = partsKnown(usage) ? Counts.plus(Counts.plus(input, cached), output) : value(usage.getTotalTokens());
        // Reasoning beyond the output it is part of (a producer that kept Gemini's thoughts apart from its output count)
        // is held to that output: no token is counted twice, and the reasoning sum stays a part of the output sum.
        long reasoning = Math.min(value(usage.getReasoningTokens()), output);
        return new Tokens(input, output, reasoning, cacheRead, cacheWrite, total, value(usage.getApiCalls()));
    }

    /** Whether the usage names any part (input, output, cache read or write); if not, only its total counts. */
    public static boolean partsKnown(Usage usage) {
        return usage.getInputTokens() != null || usage.getOutputTokens() != null
                || usage.getCacheReadTokens() != null || usage.getCacheWriteTokens() != null;
    }

    /**
     * Whether the provider's own usage counts cached tokens apart from its input (Anthropic, Bedrock): what a producer
     * that counts them inside, as the OpenTelemetry GenAI conventions do, takes out to report the provider's way.
     */
    public static boolean countsCacheApart(String provider) {
        return provider != null && containsAny(provider.trim().toLowerCase(Locale.ROOT), CACHE_EXCLUDED_FROM_INPUT);
    }

    /**
     * Whether the provider's input count includes cached tokens: known providers by name; others when the cached
     * tokens fit inside the input (the OpenAI-compatible convention most APIs follow), else not.
     */
    static boolean includesCache(String provider, long input, long cached) {
        if (cached == 0) {
            return false;
        }
        String name = provider == null ? "" : provider.trim().toLowerCase(Locale.ROOT);
        if (containsAny(name, CACHE_EXCLUDED_FROM_INPUT)) {
            return false;
        }
        if (containsAny(name, CACHE_INCLUDED_IN_INPUT)) {
            return true;
        }
        return cached <= input;
    }

    /** A loop, not a stream: this runs for every result with cached tokens, in pricing and in the analytics. */
    private static boolean containsAny(String name, Set<String> parts) {
        for (String part : parts) {
            if (name.contains(part)) {
                return true;
            }
        }
        return false;
    }

    private static long value(Long count) {
        return count == null ? 0 : count;
    }
}

package io.agentoutcomes.app.fleet;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Random;

/** The fleet's agents and models, with list prices in US dollars per million tokens (as published in 2025). */
final class Catalog {
    /** One model of one provider and its prices per million tokens. */
    record Model(String provider, String name, String input, String output, String cacheRead, String cacheWrite) {
        BigDecimal price(String perMillion, long tokens) {
            return new BigDecimal(perMillion).multiply(BigDecimal.valueOf(tokens))
                    .divide(BigDecimal.valueOf(1_000_000), 12, RoundingMode.HALF_UP);
        }
    }

    /**
     * Token counts of one call: {@code input} is the prompt, its cache reads included; cache writes come on top.
     * Each provider reports them its own way ({@link #reportedInput}); every token counts once in {@link #total}.
     */
    record Tokens(long input, long output, long cacheRead, long cacheWrite) {
        /** Every token, once: uncached input, cache reads, cache writes, output (docs/analytics.md, "Figures"). */
        long total() {
            return input + cacheWrite + output;
        }

        /**
         * The input token count as the model's provider reports it: Anthropic's excludes cache reads and writes; the
         * OpenAI-style APIs' includes them.
         */
        long reportedInput(Model model) {
            return model.provider().equals("anthropic") ? input - cacheRead : input + cacheWrite;
        }
    }

    static final List<Model> MODELS = List.of(
            new Model("openai", "gpt-4o-mini", "0.15", "0.60", "0.075", "0"),
            new Model("openai", "gpt-4o", "2.50", "10.00", "1.25", "0"),
            new Model("anthropic", "claude-3-5-haiku", "0.80", "4.00", "0.08", "1.00"),
            new Model("anthropic", "claude-sonnet-4", "3.00", "15.00", "0.30", "3.75"),
            new Model("cerebras", "llama-3.3-70b", "0.85", "1.20", "0.85", "0"));

    /** The model a result is counted under when it names none (review results). */
    static final String NO_MODEL = "unknown";

    /** Agents that publish VAT envelopes, flatagents results or canonical Avro. */
    static final List<String> AGENTS = List.of("summarizer", "planner", "extractor", "support-bot", "translator");
    /** The review agents. */
    static final List<String> REVIEWERS = List.of("security-reviewer", "style-reviewer");

    private Catalog() {
    }

    static Tokens tokens(Random random) {
        long input = 400 + random.nextInt(6_000);
        long cacheRead = random.nextInt(3) == 0 ? 0 : input * (20 + random.nextInt(60)) / 100;
        long cacheWrite = random.nextInt(4) == 0 ? 200 + random.nextInt(1_500) : 0;
        return new Tokens(input, 40 + random.nextInt(1_200), cacheRead, cacheWrite);
    }

    /** Input cost on the uncached input, cache reads and writes at their own prices. */
    static BigDecimal[] cost(Model model, Tokens tokens) {
        return new BigDecimal[] {
            model.price(model.input(), tokens.input() - tokens.cacheRead()),
            model.price(model.output(), tokens.output()),
            model.price(model.cacheRead(), tokens.cacheRead()),
            model.price(model.cacheWrite(), tokens.cacheWrite())};
    }

    static BigDecimal total(BigDecimal[] parts) {
        BigDecimal sum = BigDecimal.ZERO;
        for (BigDecimal part : parts) {
            sum = sum.add(part);
        }
        return sum;
    }
}

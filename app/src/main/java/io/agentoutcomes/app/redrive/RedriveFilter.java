package io.agentoutcomes.app.redrive;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Which dead letters a redrive selects: every filter given must match (null: any). The time range is on when the
 * pipeline stopped the task ({@code classifiedAt}), {@code from} included, {@code to} excluded.
 *
 * @param errorCode  the canonical error code, e.g. {@code llm-timeout}
 * @param agentId    the agent
 * @param provider   the provider the failed attempt used ({@code execution.provider})
 * @param stopReason one of {@link #DEAD_LETTER_STOP_REASONS}
 * @param from       stopped at or after
 * @param to         stopped before
 */
public record RedriveFilter(String errorCode, String agentId, String provider, StopReason stopReason, Instant from,
                            Instant to) {
    /** Longest text a filter value may be: ids and codes are short, and a selection is written to every redrive record. */
    static final int MAX_VALUE_CHARS = 256;
    /**
     * The stop reasons the pipeline gives a dead letter: the retry limit, the error policy, an exhausted budget, a retry
     * held past its provider's retry budget (the gate's). The
     * filter takes any {@link StopReason} (a dead letter written by an older version may carry another).
     */
    public static final List<StopReason> DEAD_LETTER_STOP_REASONS = List.of(StopReason.RETRY_LIMIT, StopReason.ERROR,
            StopReason.BUDGET_EXCEEDED, StopReason.RETRY_BUDGET_EXHAUSTED);

    public RedriveFilter {
        bounded("errorCode", errorCode);
        bounded("agent", agentId);
        bounded("provider", provider);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("from (" + from + ") must be before to (" + to + ")");
        }
    }

    /** Every dead letter. */
    public static RedriveFilter any() {
        return new RedriveFilter(null, null, null, null, null, null);
    }

    /** A filter from text values (the command line's, the HTTP API's), each checked: a bad one says what is wrong. */
    public static RedriveFilter parse(String errorCode, String agentId, String provider, String stopReason, String from,
                                      String to) {
        return new RedriveFilter(blankToNull(errorCode), blankToNull(agentId), blankToNull(provider),
                stopReason(blankToNull(stopReason)), instant("from", blankToNull(from)), instant("to", blankToNull(to)));
    }

    private static StopReason stopReason(String text) {
        if (text == null) {
            return null;
        }
        try {
            return StopReason.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("stop reason '" + shortened(text) + "' is not one of "
                    + Arrays.toString(StopReason.values()));
        }
    }

    private static Instant instant(String name, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " '" + shortened(text)
                    + "' is not an ISO-8601 instant, e.g. 2026-03-01T12:00:00Z");
        }
    }

    private static void bounded(String name, String value) {
        if (value != null && value.length() > MAX_VALUE_CHARS) {
            throw new IllegalArgumentException(name + " is " + value.length() + " characters, more than " + MAX_VALUE_CHARS);
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    private static String shortened(String text) {
        return text.length() > 64 ? text.substring(0, 64) + "…" : text;
    }

    /** Whether {@code deadLetter} is selected. */
    public boolean matches(ClassifiedOutcome deadLetter) {
        StopReason stopped = deadLetter.getDecision() == null ? null : deadLetter.getDecision().getStopReason();
        Instant at = Instant.ofEpochMilli(deadLetter.getClassifiedAt());
        return (errorCode == null || errorCode.equals(deadLetter.getErrorCode()))
                && (agentId == null || agentId.equals(deadLetter.getAgentId()))
                && (provider == null || provider.equals(providerOf(deadLetter)))
                && (stopReason == null || stopReason == stopped)
                && (from == null || !at.isBefore(from))
                && (to == null || at.isBefore(to));
    }

    static String providerOf(ClassifiedOutcome deadLetter) {
        AgentResult result = deadLetter.getAgentResult();
        return result == null || result.getExecution() == null ? null : result.getExecution().getProvider();
    }

    /** The filters given, by name, for reports. */
    public Map<String, String> given() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("errorCode", errorCode);
        given.put("agent", agentId);
        given.put("provider", provider);
        given.put("stopReason", stopReason == null ? null : stopReason.name());
        given.put("from", from == null ? null : from.toString());
        given.put("to", to == null ? null : to.toString());
        given.values().removeIf(Objects::isNull);
        return given;
    }

    /** The filters as text, e.g. {@code errorCode=llm-timeout agent=photo-analyzer}; {@code (all)} with none. */
    public String describe() {
        StringJoiner text = new StringJoiner(" ");
        given().forEach((name, value) -> text.add(name + "=" + value));
        return text.length() == 0 ? "(all)" : text.toString();
    }
}

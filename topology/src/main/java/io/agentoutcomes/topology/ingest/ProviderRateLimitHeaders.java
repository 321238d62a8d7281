package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.topology.ratelimit.WindowLength;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider's rate-limit response headers as a {@link RateLimitState}: {@code retry-after-ms}, else {@code retry-after}
 * (seconds, or an HTTP date), and each provider's {@link Family} of window headers, the window's length where its
 * headers say it ({@link WindowLength}). Times are turned into waits against the result's time, so a result explains
 * the same whenever it is processed. A header whose value does not parse is left out: a provider's odd header must not
 * lose the result. Pure.
 */
public final class ProviderRateLimitHeaders {
    /** A reset at or above this is an epoch time in milliseconds; at or above {@link #EPOCH_SECONDS}, in seconds. */
    private static final long EPOCH_MILLIS = 100_000_000_000L;
    private static final long EPOCH_SECONDS = 1_000_000_000L;
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");
    /** Longer values are not numbers or times any provider sends; they are left out unparsed. */
    private static final int MAX_VALUE_CHARS = 64;

    private ProviderRateLimitHeaders() {
    }

    /** One header of a window: which window, what it limits, which part it is, the window's length if said, a reset. */
    private record WindowHeader(String window, String resource, String part, WindowLength length, Long resetInMs) {
    }

    /**
     * The families of rate-limit headers, tried in this order on each header; the first whose name matches reads it.
     * Adding a provider's family is a constant here.
     */
    private enum Family {
        /** Cerebras: {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}-{minute,hour,day}}, resets in seconds. */
        CEREBRAS("x-ratelimit-(limit|remaining|reset)-(requests|tokens)-(minute|hour|day)") {
            @Override
            WindowHeader read(Matcher name, String value, Instant resultTime) {
                String resource = name.group(2);
                return new WindowHeader(resource + "_per_" + name.group(3), resource, name.group(1),
                        WindowLength.valueOf(name.group(3).toUpperCase(Locale.ROOT)), millis(value, 1000));
            }
        },
        /** Groq: OpenAI's names, but its requests are per day and its tokens per minute; resets as durations. */
        GROQ("x-ratelimit-(limit|remaining|reset)-(requests|tokens)") {
            @Override
            boolean appliesTo(boolean groq) {
                return groq;
            }

            @Override
            WindowHeader read(Matcher name, String value, Instant resultTime) {
                boolean requests = name.group(2).equals("requests");
                return new WindowHeader(requests ? "requests_per_day" : "tokens_per_minute", name.group(2), name.group(1),
                        requests ? WindowLength.DAY : WindowLength.MINUTE, duration(value));
            }
        },
        /** OpenAI: {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}}, resets as durations; no length said. */
        OPENAI("x-ratelimit-(limit|remaining|reset)-(requests|tokens)") {
            @Override
            WindowHeader read(Matcher name, String value, Instant resultTime) {
                return new WindowHeader(name.group(2), name.group(2), name.group(1), null, duration(value));
            }
        },
        /** Anthropic: {@code anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}}. */
        ANTHROPIC("anthropic-ratelimit-(requests|tokens|input-tokens|output-tokens)-(limit|remaining|reset)") {
            @Override
            WindowHeader read(Matcher name, String value, Instant resultTime) {
                String resource = name.group(1).replace('-', '_');
                return new WindowHeader(resource, resource, name.group(2), null, untilRfc3339(value, resultTime));
            }
        },
        /** OpenRouter and others: {@code x-ratelimit-{limit,remaining,reset}}, a window of requests. */
        SUFFIXLESS("x-ratelimit-(limit|remaining|reset)") {
            @Override
            WindowHeader read(Matcher name, String value, Instant resultTime) {
                return new WindowHeader("requests", "requests", name.group(1), null, untilReset(value, resultTime));
            }
        };

        private final Pattern name;

        Family(String name) {
            this.name = Pattern.compile(name);
        }

        boolean appliesTo(boolean groq) {
            return true;
        }

        abstract WindowHeader read(Matcher name, String value, Instant resultTime);

        /** The first family's reading of a header, or null when no family names it. */
        static WindowHeader readAny(String name, String value, boolean groq, Instant resultTime) {
            for (Family family : values()) {
                Matcher matcher = family.name.matcher(name);
                if (family.appliesTo(groq) && matcher.matches()) {
                    return family.read(matcher, value, resultTime);
                }
            }
            return null;
        }
    }

    /**
     * The envelope's rate-limit state completed from the headers: windows where it has none, the wait where it gives
     * none; null when neither says anything.
     *
     * @param envelope   the envelope's own {@code rate_limit}, or null
     * @param rawHeaders the response headers as received (before redaction), any case
     * @param resultTime the result's time, against which reset times become waits
     */
    public static RateLimitState complete(RateLimitState envelope, Map<String, String> rawHeaders, Instant resultTime) {
        return complete(envelope, rawHeaders, null, resultTime);
    }

    /**
     * As above, for a result from {@code provider} (as {@code provider_data.provider} names it, or null), whose
     * headers some providers count differently (Groq: requests per day). A {@code retry-after} later than the
     * envelope's {@code retry_after} wins: the latest signal holds, never the earliest.
     */
    public static RateLimitState complete(RateLimitState envelope, Map<String, String> rawHeaders, String provider,
                                          Instant resultTime) {
        Map<String, String> headers = new LinkedHashMap<>();
        rawHeaders.forEach((name, value) -> {
            if (name != null && value != null && value.length() <= MAX_VALUE_CHARS) {
                headers.put(name.toLowerCase(Locale.ROOT).trim(), value.trim());
            }
        });
        RateLimitState.Builder state = envelope == null ? RateLimitState.newBuilder() : RateLimitState.newBuilder(envelope);
        boolean changed = retryAfter(headers, resultTime, state);
        if (envelope == null || envelope.getWindows().isEmpty()) {
            boolean groq = provider != null && provider.trim().toLowerCase(Locale.ROOT).startsWith("groq");
            List<RateLimitWindow> windows = windows(headers, groq, resultTime);
            if (!windows.isEmpty()) {
                state.setWindows(windows);
                state.setLimited(state.getLimited() || windows.stream().anyMatch(w -> Long.valueOf(0).equals(w.getRemaining())));
                changed = true;
            }
        }
        return envelope == null && !changed ? null : state.build();
    }

    private static boolean retryAfter(Map<String, String> headers, Instant resultTime, RateLimitState.Builder state) {
        String ms = headers.get("retry-after-ms");
        Long millis = ms == null ? null : millis(ms, 1);
        String header = "retry-after-ms: " + ms;
        if (millis == null && headers.containsKey("retry-after")) {
            String value = headers.get("retry-after");
            millis = millis(value, 1000);
            if (millis == null) {
                millis = untilHttpDate(value, resultTime);
            }
            header = "retry-after: " + value;
        }
        if (millis == null || state.getRetryAfterMs() != null && state.getRetryAfterMs() >= millis) {
            return false;
        }
        state.setRetryAfterMs(millis).setRetryAfterHeader(header);
        return true;
    }

    private static List<RateLimitWindow> windows(Map<String, String> headers, boolean groq, Instant resultTime) {
        Map<String, RateLimitWindow.Builder> windows = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            WindowHeader header = Family.readAny(name, value, groq, resultTime);
            if (header != null) {
                RateLimitWindow.Builder window = windows.computeIfAbsent(header.window(), n -> RateLimitWindow.newBuilder()
                        .setName(n).setResource(header.resource())
                        .setLengthMs(header.length() == null ? null : header.length().millis()));
                set(window, header.part(), name, value, header.resetInMs(), resultTime);
            }
        });
        List<RateLimitWindow> built = new ArrayList<>();
        windows.values().forEach(window -> built.add(window.build()));
        return built;
    }

    /** One header into its window: a count, or a reset as a wait from the result's time. */
    private static void set(RateLimitWindow.Builder window, String part, String name, String value, Long resetInMs,
                            Instant resultTime) {
        switch (part) {
            case "limit" -> window.setLimit(count(value));
            case "remaining" -> {
                Long remaining = count(value);
                window.setRemaining(remaining);
                if (remaining != null) {
                    window.setHeader(name + ": " + value);
                }
            }
            case "reset" -> {
                if (resetInMs != null) {
                    window.setResetsInMs(resetInMs).setResetAtMs(saturatedAdd(resultTime.toEpochMilli(), resetInMs));
                }
            }
            default -> throw new IllegalStateException("unknown header part " + part);
        }
    }

    private static Long count(String value) {
        return millis(value, 1);
    }

    /** A non-negative decimal number times {@code factor}, saturated at Long.MAX_VALUE; null if not a number. */
    private static Long millis(String value, long factor) {
        try {
            BigDecimal number = new BigDecimal(value);
            if (number.signum() < 0) {
                return null;
            }
            BigDecimal scaled = number.multiply(BigDecimal.valueOf(factor));
            return scaled.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : scaled.longValue();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** OpenAI's reset durations: {@code 20ms}, {@code 1s}, {@code 6m30s}, {@code 1h2m3.5s}. */
    private static Long duration(String value) {
        Matcher part = DURATION_PART.matcher(value);
        long total = 0;
        int end = 0;
        while (part.find() && part.start() == end) {
            long factor = switch (part.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            Long millis = millis(part.group(1), factor);
            total = saturatedAdd(total, millis);
            end = part.end();
        }
        return end == value.length() && end > 0 ? total : null;
    }

    /** A suffix-less reset: epoch milliseconds, epoch seconds, or seconds from now, told apart by size. */
    private static Long untilReset(String value, Instant resultTime) {
        Long number = millis(value, 1);
        if (number == null) {
            return null;
        }
        if (number >= EPOCH_MILLIS) {
            return until(Instant.ofEpochMilli(number), resultTime);
        }
        return number >= EPOCH_SECONDS ? until(Instant.ofEpochSecond(number), resultTime) : millis(value, 1000);
    }

    private static Long untilRfc3339(String value, Instant resultTime) {
        try {
            return until(OffsetDateTime.parse(value).toInstant(), resultTime);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Long untilHttpDate(String value, Instant resultTime) {
        try {
            return until(ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant(), resultTime);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The wait from the result's time to a reset; 0 for a reset already past. */
    private static long until(Instant reset, Instant resultTime) {
        if (!reset.isAfter(resultTime)) {
            return 0;
        }
        // Saturated as every wait here is: a reset in the year 999999999 overflows epoch milliseconds.
        return reset.isAfter(Instant.ofEpochMilli(InputBounds.MAX_TIME)) ? Long.MAX_VALUE
                : reset.toEpochMilli() - resultTime.toEpochMilli();
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}

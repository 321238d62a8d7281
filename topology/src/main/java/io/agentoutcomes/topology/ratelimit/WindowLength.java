package io.agentoutcomes.topology.ratelimit;

import io.agentoutcomes.avro.RateLimitWindow;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The length of a rate-limit window, decided once: the {@code lengthMs} the provider's headers gave it where they were
 * read (Cerebras' {@code -minute}/{@code -hour}/{@code -day} headers, Groq's requests per day), else what its name says
 * ({@code requests_per_minute}, {@code tokens_per_day}, {@code daily}), else unknown. The backoff (seed 003's waits for
 * a window with no reset), the daily limit (a wait does not fix it within the hour) and the provider gate's pacing
 * (its bucket's refill) all ask here. Pure.
 */
public enum WindowLength {
    SECOND(Duration.ofSeconds(1)),
    MINUTE(Duration.ofMinutes(1)),
    HOUR(Duration.ofHours(1)),
    DAY(Duration.ofDays(1));

    private final Duration duration;

    WindowLength(Duration duration) {
        this.duration = duration;
    }

    public Duration duration() {
        return duration;
    }

    public long millis() {
        return duration.toMillis();
    }

    /** A window's length in milliseconds: its {@code lengthMs}, else its name's, else empty. */
    public static Optional<Long> millisOf(RateLimitWindow window) {
        if (window.getLengthMs() != null && window.getLengthMs() > 0) {
            return Optional.of(window.getLengthMs());
        }
        return named(window.getName()).map(WindowLength::millis);
    }

    /** Whether a window is at least a day long: a daily limit. */
    public static boolean isDaily(RateLimitWindow window) {
        return millisOf(window).filter(ms -> ms >= DAY.millis()).isPresent();
    }

    /** Whether a window is exactly {@code length} long. */
    public static boolean is(RateLimitWindow window, WindowLength length) {
        return millisOf(window).filter(ms -> ms == length.millis()).isPresent();
    }

    /** What a window's name says of its length ({@code day} or {@code daily}, {@code hour}, {@code minute}, {@code second}). */
    public static Optional<WindowLength> named(String name) {
        String lower = name == null ? "" : name.toLowerCase(Locale.ROOT);
        if (lower.contains("day") || lower.contains("daily")) {
            return Optional.of(DAY);
        }
        if (lower.contains("hour")) {
            return Optional.of(HOUR);
        }
        if (lower.contains("minute")) {
            return Optional.of(MINUTE);
        }
        return lower.contains("second") ? Optional.of(SECOND) : Optional.empty();
    }
}

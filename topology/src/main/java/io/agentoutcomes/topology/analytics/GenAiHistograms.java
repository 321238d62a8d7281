package io.agentoutcomes.topology.analytics;

import java.util.HashMap;
import java.util.Map;

/**
 * The OpenTelemetry GenAI semantic conventions' client histograms of one partial aggregate, counted per result at the
 * bucket boundaries the conventions advise, so they merge exactly across partitions and windows (counts add):
 * {@code gen_ai.client.token.usage} by token type and {@code gen_ai.client.operation.duration} by {@code error.type}.
 * Kept in {@code AgentMetrics.genAiHistograms} under the keys {@code token|<type>|<bucket>} and
 * {@code token_sum|<type>}, {@code duration|<error type, empty when none>|<bucket>} and
 * {@code duration_ms|<error type, empty when none>}. A bucket is the index of the first bound a value is at or below,
 * the last index for above every bound. Each result adds what {@link TokenNormalizer} and {@link DurationSketch#record}
 * made of it for the token counters and the duration sketch, so over the same results the sums are theirs exactly.
 * Not thread-safe.
 */
public final class GenAiHistograms {
    /** {@code gen_ai.client.token.usage}'s advised boundaries, tokens: 1, 4, 16, ... 4^13. */
    public static final long[] TOKEN_BOUNDS = {1, 4, 16, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576,
        4_194_304, 16_777_216, 67_108_864};
    /** {@code gen_ai.client.operation.duration}'s advised boundaries, in milliseconds: 10 ms, 20 ms, ... 81.92 s. */
    public static final long[] DURATION_BOUNDS_MS = {10, 20, 40, 80, 160, 320, 640, 1_280, 2_560, 5_120, 10_240, 20_480,
        40_960, 81_920};
    public static final String TOKEN = "token";
    public static final String DURATION = "duration";
    public static final String TOKEN_SUM = "token_sum";
    public static final String DURATION_MS = "duration_ms";
    /** The token types, as {@code Figures.Tokens} has them. */
    public static final String[] TOKEN_TYPES = {"input", "output", "unknown"};
    public static final int BUCKETS = TOKEN_BOUNDS.length + 1;

    /** Per token type: the buckets' counts, then the summed tokens in the last slot. */
    private final long[][] tokens = new long[TOKEN_TYPES.length][BUCKETS + 1];
    /** Durations of results that are no failure: the buckets' counts, then the summed milliseconds. */
    private final long[] durations = new long[BUCKETS + 1];
    /** Durations of failures by error type, as {@link #durations}. */
    private Map<String, long[]> failures;

    /**
     * One result's tokens: input and output when its usage names any part, else the reported total as unknown
     * ({@code partsKnown} false); none when it reports no usage.
     */
    void addTokens(TokenNormalizer.Tokens normalized, boolean partsKnown) {
        if (partsKnown) {
            long input = Counts.plus(Counts.plus(normalized.input(), normalized.cacheRead()), normalized.cacheWrite());
            record(tokens[0], TOKEN_BOUNDS, input);
            record(tokens[1], TOKEN_BOUNDS, normalized.output());
        } else {
            record(tokens[2], TOKEN_BOUNDS, normalized.total());
        }
    }

    private static void record(long[] counts, long[] bounds, long value) {
        counts[bucket(bounds, value)]++;
        counts[BUCKETS] = Counts.plus(counts[BUCKETS], value);
    }

    /** One result's duration as recorded in the sketch; {@code errorType} null unless the result is a failure. */
    void addDuration(long recordedMs, String errorType) {
        if (errorType == null) {
            record(durations, DURATION_BOUNDS_MS, recordedMs);
            return;
        }
        if (failures == null) {
            failures = new HashMap<>();
        }
        record(failures.computeIfAbsent(errorType, t -> new long[BUCKETS + 1]), DURATION_BOUNDS_MS, recordedMs);
    }

    /** The counts as the aggregate keeps them (buckets at 0 left out). */
    Map<String, Long> toMap() {
        Map<String, Long> map = new HashMap<>();
        for (int type = 0; type < TOKEN_TYPES.length; type++) {
            put(map, TOKEN, TOKEN_SUM, TOKEN_TYPES[type], tokens[type]);
        }
        put(map, DURATION, DURATION_MS, "", durations);
        if (failures != null) {
            failures.forEach((errorType, counts) -> put(map, DURATION, DURATION_MS, errorType, counts));
        }
        return map;
    }

    /** One series' buckets and sum, if it counted any value. */
    private static void put(Map<String, Long> map, String buckets, String sum, String series, long[] counts) {
        boolean any = false;
        for (int i = 0; i < BUCKETS; i++) {
            if (counts[i] > 0) {
                map.put(buckets + '|' + series + '|' + i, counts[i]);
                any = true;
            }
        }
        if (any) {
            map.put(sum + '|' + series, counts[BUCKETS]);
        }
    }

    /** The index of the first bound {@code value} is at or below; {@code bounds.length} above them all. */
    public static int bucket(long[] bounds, long value) {
        for (int i = 0; i < bounds.length; i++) {
            if (value <= bounds[i]) {
                return i;
            }
        }
        return bounds.length;
    }
}

package io.agentoutcomes.topology.analytics;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * How far each pre-aggregating task (a <em>source</em> of partials, by its task's partition) has got, so that the
 * merge step closes a window only once every source that may still send partials for it is past its end plus the
 * grace period.
 * <p>
 * Closing by the latest partial seen, as before, lost data after a restart: the restarted tasks catch up unevenly,
 * one task's partials for a later minute reach the merge step first and close earlier windows whose partials another
 * task has not sent yet (issue 19: 60 and 314 partials dropped as late, 12–32 % of the 1-minute windows' completions).
 * <p>
 * Each source sends, after the partials of every flush, a progress record to every partition of the partials topic
 * (keyed {@value #PREFIX}{@code <source>|<state>|<time>}, no value): the latest timestamp it has aggregated, never
 * past the wall clock (a record stamped ahead must not close the windows of every other record: issue 29), and
 * whether it aggregated anything since its last flush. A source that did is <em>busy</em> and holds the windows back
 * to its time; one that did not is <em>idle</em> — it has no backlog, so whatever it sends later is new — and holds
 * nothing back; one that has aggregated nothing since it started is <em>starting</em> for {@link #STARTING_FOR_MS}
 * (it may be about to read a backlog) and holds the windows back to the last time it reported before. The merge step
 * keeps each source's time in a changelogged store, so after its own restart it still waits for sources it has not
 * heard from again; a window then closes late, never early.
 */
public final class SourceProgress {
    /** Progress records' keys start with this; window keys never do. */
    static final String PREFIX = "~source|";
    /** How long a task that has aggregated nothing since it started counts as about to read a backlog. */
    static final long STARTING_FOR_MS = 30_000;

    /** What a source says of itself in a progress record. */
    enum State { BUSY, IDLE, STARTING }

    /** One progress record's content. */
    record Report(int source, State state, long time) {
        String key() {
            return PREFIX + source + '|' + state.name().toLowerCase(Locale.ROOT) + '|' + time;
        }
    }

    /** What the merge step knows of one source. */
    private static final class Source {
        long time;
        boolean idle;

        Source(long time) {
            this.time = time;
        }
    }

    private final Map<Integer, Source> sources = new HashMap<>();

    static boolean isProgress(String key) {
        return key.startsWith(PREFIX);
    }

    static Report parse(String key) {
        String[] parts = key.substring(PREFIX.length()).split("\\|", 3);
        return new Report(Integer.parseInt(parts[0]), State.valueOf(parts[1].toUpperCase(Locale.ROOT)),
                Long.parseLong(parts[2]));
    }

    /** A source known from before a restart: busy at its last reported time until it reports again. */
    void restore(int source, long time) {
        sources.put(source, new Source(time));
    }

    /**
     * Takes a source's report in.
     *
     * @return the source's time if it advanced (to be stored), or -1
     */
    long update(Report report) {
        Source source = sources.computeIfAbsent(report.source(), s -> new Source(Long.MIN_VALUE));
        source.idle = report.state() == State.IDLE;
        if (report.time() > source.time) {
            source.time = report.time();
            return source.time;
        }
        return -1;
    }

    /**
     * The time windows close by: the earliest time of the sources that may still send earlier partials (busy or
     * starting), or, when every source is idle, the latest of all; {@code Long.MIN_VALUE} before any source is known.
     */
    long closeTime() {
        long earliestBusy = Long.MAX_VALUE;
        long latest = Long.MIN_VALUE;
        for (Source source : sources.values()) {
            latest = Math.max(latest, source.time);
            if (!source.idle) {
                earliestBusy = Math.min(earliestBusy, source.time);
            }
        }
        return earliestBusy != Long.MAX_VALUE ? earliestBusy : latest;
    }

    /**
     * Partitions the partials topic: a partial by its key's hash (Kafka's default), a progress record to every
     * partition, since every merge task must hear from every source.
     */
    static final class Partitioner<V> implements StreamPartitioner<String, V> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, String key, V value, int numPartitions) {
            if (key == null || !isProgress(key)) {
                return Optional.empty();
            }
            return Optional.of(IntStream.range(0, numPartitions).boxed().collect(Collectors.toSet()));
        }
    }
}

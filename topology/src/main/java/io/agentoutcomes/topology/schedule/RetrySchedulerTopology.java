package io.agentoutcomes.topology.schedule;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.topic.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * Holds retries from the {@code retry-delay-<tier>} topics in a persistent store ordered by due time, and forwards
 * each on when due (to the provider gate, then {@code retry-ready}). It reads every delay topic of the prefix by pattern
 * ({@link Topics#retryDelayFamily}), those of tiers the settings no longer make included, so no retry waits on a topic
 * nobody reads after the tiers change. Forwarded never before its due time (by the wall clock), and as soon after as the
 * check interval allows. The store is changelogged, so pending retries survive restarts and rebalances; with
 * exactly-once, a retry's removal from the store and its forwarding commit together, so it is forwarded once.
 * <p>
 * A check forwards at most {@link SchedulerSettings#maxPerCheck} retries (a burst of a million due at once is spread
 * over several checks, each well inside the transaction timeout) and the next check resumes where the last one stopped, so the
 * deleted entries before that point (RocksDB tombstones) are not scanned again every interval.
 */
public final class RetrySchedulerTopology {
    private RetrySchedulerTopology() {
    }

    /** The retries as they come due, for the provider gate (or {@code retry-ready}) to take on. */
    public static KStream<String, RetryRequest> build(StreamsBuilder builder, Topics topics, SchedulerSettings settings) {
        // Every delay topic of the prefix, not only today's tiers: a retry written to a tier that a restart with other
        // retry.tiers retired must still come out.
        return builder.stream(topics.retryDelayFamily, Consumed.with(Serdes.String(), topics.retryReady.valueSerde())
                        .withName("read-retry-delays"))
                .process(RetryScheduler.supplier(settings), Named.as("schedule-retries"));
    }
}

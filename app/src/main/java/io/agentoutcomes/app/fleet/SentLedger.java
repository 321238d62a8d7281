package io.agentoutcomes.app.fleet;

import io.agentoutcomes.client.OutcomePublisher;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * What the fleet sent, first attempts and re-runs alike: records per topic and per kind, the tokens and cost of its
 * agent results per model (the fleet's own tally, which every surface of the pipeline must give back), and the sends
 * that failed.
 */
final class SentLedger {
    private final OutcomePublisher publisher;
    private final Map<String, AtomicLong> sentByTopic = new ConcurrentHashMap<>();
    private final Map<TrafficKind, AtomicLong> sentByKind = new ConcurrentHashMap<>();
    private final List<Future<RecordMetadata>> inFlight = new ArrayList<>();
    private final AtomicLong failures = new AtomicLong();
    private final Map<String, Long> sentTokens = new TreeMap<>();
    private final Map<String, BigDecimal> sentCost = new TreeMap<>();

    SentLedger(OutcomePublisher publisher) {
        this.publisher = publisher;
    }

    /** Counts one first attempt of a kind. */
    void countKind(TrafficKind kind) {
        sentByKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    /** Counts the tokens and cost of one agent result sent (re-runs too), under the model it names. */
    synchronized void tally(String model, Catalog.Tokens tokens, BigDecimal cost) {
        sentTokens.merge(model, tokens.total(), Long::sum);
        sentCost.merge(model, cost, BigDecimal::add);
    }

    synchronized Map<String, Long> sentTokensByModel() {
        return new TreeMap<>(sentTokens);
    }

    synchronized Map<String, BigDecimal> sentCostByModel() {
        Map<String, BigDecimal> copy = new TreeMap<>();
        sentCost.forEach((model, usd) -> copy.put(model, usd.stripTrailingZeros()));
        return copy;
    }

    /** Counts a record sent to a topic; re-runs are counted here too. */
    synchronized void track(Future<RecordMetadata> sent, String topic) {
        sentByTopic.computeIfAbsent(topic, t -> new AtomicLong()).incrementAndGet();
        inFlight.add(sent);
        if (inFlight.size() > 1_000) {
            settle();
        }
    }

    /** Waits for every record sent so far to be acknowledged, counting those that failed. */
    synchronized void settle() {
        publisher.flush();
        for (Future<RecordMetadata> sent : inFlight) {
            try {
                sent.get();
            } catch (Exception e) {
                failures.incrementAndGet();
            }
        }
        inFlight.clear();
    }

    Map<String, Long> sentByTopic() {
        Map<String, Long> copy = new TreeMap<>();
        sentByTopic.forEach((topic, count) -> copy.put(topic, count.get()));
        return copy;
    }

    Map<String, Long> sentByKind() {
        Map<String, Long> copy = new TreeMap<>();
        sentByKind.forEach((kind, count) -> copy.put(kind.name().toLowerCase(Locale.ROOT), count.get()));
        return copy;
    }

    long failures() {
        return failures.get();
    }
}

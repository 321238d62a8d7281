package io.agentoutcomes.app.fleet;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.client.PipelineTopics;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.Figures;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Counts what the pipeline wrote, as any consumer sees it ({@code read_committed}): every record on
 * {@code outcomes-classified} by result type (and its cost and tokens by model, as {@link Figures} defines them, the
 * definition {@code /analytics} and {@code /metrics} use), on the
 * {@code retry-delay-<tier>} topics (retries scheduled), on {@code retry-ready} (delivered) and on {@code dead-letter}
 * (by stop reason), from the offsets the topics had when it was created, so earlier runs on the same broker do not
 * count. Reads on a thread of its own; {@link #snapshot()} is consistent.
 */
final class TopicCounts implements AutoCloseable {
    /** The counts at one moment. */
    record Snapshot(Map<String, Long> outcomes, long retriesScheduled, long retriesDelivered, long deliveredBeforeDue,
                    Set<String> succeededAfterRetry, Map<String, Long> deadLetters, Map<String, Long> deadLettersByCode,
                    Map<String, BigDecimal> costByModel,
                    Map<String, Long> tokensByModel, Map<String, Long> outcomesByJob) {
        long outcomeTotal() {
            return outcomes.values().stream().mapToLong(Long::longValue).sum();
        }

        long deadLetterTotal() {
            return deadLetters.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final PipelineTopics topics;
    private final String delayPrefix;
    private final Deserializer<ClassifiedOutcome> outcomes;
    private final Deserializer<RetryRequest> retries;
    private final Thread thread;
    private final Map<TopicPartition, Long> start = new HashMap<>();
    private volatile boolean running = true;
    private volatile boolean caughtUp;
    private volatile RuntimeException failure;

    private final Map<String, Long> byType = new TreeMap<>();
    private long scheduled;
    private long delivered;
    private long beforeDue;
    private final Set<String> afterRetry = new HashSet<>();
    private final Map<String, Long> deadByReason = new TreeMap<>();
    private final Map<String, Long> deadByCode = new TreeMap<>();
    private final Figures.Tally tally = new Figures.Tally();
    private final Map<String, Long> byJob = new HashMap<>();

    TopicCounts(Map<String, Object> clientSettings, PipelineTopics topics) {
        this.topics = topics;
        this.delayPrefix = topics.prefix() + TopicNames.RETRY_DELAY_PREFIX;
        Map<String, Object> config = new HashMap<>(clientSettings);
        config.keySet().removeIf(k -> k.startsWith("schema.registry.") || k.startsWith("basic.auth."));
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        outcomes = AvroSerde.specific(ClassifiedOutcome.class).configured(clientSettings, false).deserializer();
        retries = AvroSerde.specific(RetryRequest.class).configured(clientSettings, false).deserializer();
        List<TopicPartition> partitions = new ArrayList<>();
        for (Map.Entry<String, List<PartitionInfo>> topic : consumer.listTopics(Duration.ofSeconds(30)).entrySet()) {
            String name = topic.getKey();
            if (name.equals(topics.outcomesClassified()) || name.equals(topics.retryReady())
                    || name.equals(topics.deadLetter()) || name.startsWith(delayPrefix)) {
                topic.getValue().forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
        }
        if (partitions.stream().noneMatch(p -> p.topic().equals(topics.outcomesClassified()))) {
            consumer.close();
            throw new IllegalStateException("no topic " + topics.outcomesClassified()
                    + ": is the pipeline running against these bootstrap servers, with this topic prefix?");
        }
        consumer.assign(partitions);
        start.putAll(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
        start.forEach(consumer::seek);
        thread = new Thread(this::poll, "topic-counts");
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(200));
                synchronized (this) {
                    records.forEach(this::count);
                }
                Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment(), Duration.ofSeconds(10));
                caughtUp = ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            consumer.close();
        }
    }

    private void count(ConsumerRecord<byte[], byte[]> record) {
        String topic = record.topic();
        if (topic.startsWith(delayPrefix)) {
            scheduled++;
        } else if (topic.equals(topics.retryReady())) {
            delivered++;
            RetryRequest retry = retries.deserialize(topic, record.headers(), record.value());
            if (record.timestamp() < retry.getDueAt()) {
                beforeDue++;
            }
        } else if (topic.equals(topics.deadLetter())) {
            ClassifiedOutcome stopped = outcomes.deserialize(topic, record.headers(), record.value());
            String reason = stopped.getDecision() == null || stopped.getDecision().getStopReason() == null ? "error"
                    : stopped.getDecision().getStopReason().name();
            deadByReason.merge(reason.toLowerCase(Locale.ROOT), 1L, Long::sum);
            deadByCode.merge(stopped.getErrorCode() == null ? "none" : stopped.getErrorCode(), 1L, Long::sum);
        } else {
            ClassifiedOutcome outcome = outcomes.deserialize(topic, record.headers(), record.value());
            byType.merge(outcome.getResultType().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
            if (outcome.getResultType() == ResultType.SUCCESS && outcome.getAttempt() > 0) {
                afterRetry.add(outcome.getTaskId());
            }
            if (outcome.getJobId() != null) {
                byJob.merge(outcome.getJobId(), 1L, Long::sum);
            }
            tally.add(outcome);
        }
    }

    /** True once it has read everything committed on its topics as of its last poll. */
    boolean caughtUp() {
        if (failure != null) {
            throw failure;
        }
        return caughtUp;
    }

    synchronized Snapshot snapshot() {
        if (failure != null) {
            throw failure;
        }
        Map<String, BigDecimal> costs = new TreeMap<>();
        Map<String, Long> tokens = new TreeMap<>();
        // the workflow nodes' aggregate has neither tokens nor cost: not a model
        Figures.byModel(tally.aggregates().stream().filter(m -> !m.getAgentId().equals(Dimensions.WORKFLOW))
                .toList()).forEach((model, m) -> {
                    costs.put(model, m.getCostTotal().stripTrailingZeros());
                    tokens.put(model, Figures.tokens(m).total());
                });
        return new Snapshot(Map.copyOf(byType), scheduled, delivered, beforeDue, Set.copyOf(afterRetry),
                Map.copyOf(deadByReason), Map.copyOf(deadByCode), costs, tokens, Map.copyOf(byJob));
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

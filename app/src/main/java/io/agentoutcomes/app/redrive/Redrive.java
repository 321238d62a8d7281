package io.agentoutcomes.app.redrive;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.DeadLetterRedrive;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.classify.RetryRequests;
import io.agentoutcomes.topology.topic.OutputHeaders;
import io.agentoutcomes.topology.topic.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends dead letters back: each one the filters select, and no earlier redrive handled, is re-issued once to
 * {@code retry-ready} as a retry due now with a fresh attempt budget ({@link RetryRequests#redriveOf}), and recorded on
 * {@code redrives}. What makes it once:
 * <ul>
 *   <li>every redrive of a deployment uses one {@code transactional.id}, {@code <application.id>-redrive}, and
 *       initializes it before reading anything: a redrive still running is fenced then (its writes aborted, its commit
 *       refused), so two cannot both re-issue a dead letter;</li>
 *   <li>{@code redrives} is read {@code read_committed} to its end, and a dead letter recorded there (by its place
 *       and its task and result id) is skipped;</li>
 *   <li>the retries and their records are written in one transaction: a crash leaves both or neither.</li>
 * </ul>
 * A task is re-run once per redrive: of several selected dead letters of one task the latest is re-issued, the others
 * recorded as superseded by it. Used by {@code agent-outcomes redrive} and {@code POST /redrive}.
 */
public final class Redrive {
    /** Dead letters one redrive handles unless asked otherwise, and the most it may be asked to: a next run takes the rest. */
    public static final int DEFAULT_LIMIT = 1_000;
    public static final int MAX_LIMIT = 10_000;
    static final int EXAMPLES = 5;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, Object> clientConfig;
    private final Topics topics;
    private final String transactionalId;
    private final Clock clock;

    /** {@code clientConfig}: the Kafka client settings (bootstrap servers, security); the serdes come with {@code topics}. */
    public Redrive(Map<String, Object> clientConfig, Topics topics, String applicationId, Clock clock) {
        this.clientConfig = Map.copyOf(clientConfig);
        this.topics = topics;
        this.transactionalId = applicationId + "-redrive";
        this.clock = clock;
    }

    /** The dead letters read, counted as they pass (the scan's callback cannot return them). */
    private static final class Tally {
        long scanned;
        long matched;
        long alreadyRedriven;
        long leftOver;
    }

    /**
     * A dead letter read, with where it was and its headers; not its bytes: a redrive holds up to its limit of these,
     * and the decoded outcome is all it writes from.
     */
    private record DeadLetter(String topic, int partition, long offset, Headers headers, ClassifiedOutcome outcome) {
        DeadLetter(ConsumerRecord<String, byte[]> record, ClassifiedOutcome outcome) {
            this(record.topic(), record.partition(), record.offset(), record.headers(), outcome);
        }

        String coordinates() {
            return topic + "/" + partition + "/" + offset;
        }

        String identity() {
            return Redrive.identity(coordinates(), outcome.getTaskId(), outcome.getResultId());
        }
    }

    /** Redrives what {@code filter} selects, at most {@code limit} dead letters; on a dry run, only counts. */
    public synchronized RedriveReport run(RedriveFilter filter, boolean dryRun, int limit, String requestedBy) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", was " + limit);
        }
        String redriveId = dryRun ? null : UUID.randomUUID().toString();
        try (KafkaProducer<String, byte[]> producer = dryRun ? null : transactionalProducer()) {
            if (producer != null) {
                producer.initTransactions();
            }
            Set<String> done = new HashSet<>();
            Deserializer<DeadLetterRedrive> redrives = topics.redrives.valueSerde().deserializer();
            readToEnd(topics.redrives.name(), record -> {
                DeadLetterRedrive redriven = redrives.deserialize(record.topic(), record.headers(), record.value());
                if (redriven != null) {
                    done.add(identity(redriven.getDeadLetterTopic() + "/" + redriven.getDeadLetterPartition() + "/"
                            + redriven.getDeadLetterOffset(), redriven.getTaskId(), redriven.getResultId()));
                }
            });
            Deserializer<ClassifiedOutcome> deadLetters = topics.deadLetter.valueSerde().deserializer();
            Tally tally = new Tally();
            List<DeadLetter> selected = new ArrayList<>();
            readToEnd(topics.deadLetter.name(), record -> {
                tally.scanned++;
                ClassifiedOutcome outcome = deadLetters.deserialize(record.topic(), record.headers(), record.value());
                if (outcome == null || !filter.matches(outcome)) {
                    return;
                }
                tally.matched++;
                DeadLetter deadLetter = new DeadLetter(record, outcome);
                if (done.contains(deadLetter.identity())) {
                    tally.alreadyRedriven++;
                } else if (selected.size() < limit) {
                    selected.add(deadLetter);
                } else {
                    tally.leftOver++;
                }
            });
            Map<String, DeadLetter> latest = selected.stream().collect(Collectors.toMap(d -> d.outcome().getTaskId(),
                    d -> d, (a, b) -> LATEST.compare(a, b) >= 0 ? a : b));
            if (producer != null && !selected.isEmpty()) {
                write(producer, redriveId, selected, latest, filter, requestedBy);
            }
            List<RedriveReport.Example> examples = selected.stream().limit(EXAMPLES).map(Redrive::example).toList();
            return new RedriveReport(redriveId, dryRun, filter.describe(), tally.scanned, tally.matched,
                    tally.alreadyRedriven, selected.size(), latest.size(), selected.size() - latest.size(), tally.leftOver,
                    examples);
        }
    }

    private static final Comparator<DeadLetter> LATEST = Comparator
            .comparingLong((DeadLetter d) -> d.outcome().getClassifiedAt())
            .thenComparingLong(DeadLetter::offset);

    /**
     * A dead letter's identity: where it is, and its task and result id. Not the ids alone: a task redriven re-runs
     * from attempt 0, and an orchestrator that names results {@code <taskId>/<attempt>} gives a second stop of it the
     * result id of the first. Not the place alone: a {@code dead-letter} topic deleted and made again reuses offsets.
     */
    private static String identity(String coordinates, String taskId, String resultId) {
        return coordinates + "\n" + taskId + "\n" + resultId;
    }

    private void write(KafkaProducer<String, byte[]> producer, String redriveId, List<DeadLetter> selected,
                       Map<String, DeadLetter> latest, RedriveFilter filter, String requestedBy) {
        Instant now = clock.instant();
        try {
            producer.beginTransaction();
            for (DeadLetter deadLetter : selected) {
                ClassifiedOutcome outcome = deadLetter.outcome();
                DeadLetter reissued = latest.get(outcome.getTaskId());
                boolean reissue = reissued == deadLetter;
                if (reissue) {
                    RetryRequest retry = RetryRequests.redriveOf(outcome, redriveId, now);
                    producer.send(new ProducerRecord<>(topics.retryReady.name(), null, now.toEpochMilli(),
                            outcome.getTaskId(), topics.retryReady.valueSerde().serializer()
                            .serialize(topics.retryReady.name(), retry), retryHeaders(deadLetter, redriveId, now)));
                }
                DeadLetterRedrive record = DeadLetterRedrive.newBuilder().setRedriveId(redriveId)
                        .setTaskId(outcome.getTaskId()).setResultId(outcome.getResultId()).setAgentId(outcome.getAgentId())
                        .setErrorCode(outcome.getErrorCode())
                        .setStopReason(outcome.getDecision() == null ? null : outcome.getDecision().getStopReason())
                        .setDeadLetterTopic(deadLetter.topic()).setDeadLetterPartition(deadLetter.partition())
                        .setDeadLetterOffset(deadLetter.offset()).setReissued(reissue)
                        .setSupersededBy(reissue ? null : reissued.outcome().getResultId())
                        .setRequestedBy(requestedBy).setRedrivenAt(now.toEpochMilli()).setSelection(filter.describe())
                        .build();
                producer.send(new ProducerRecord<>(topics.redrives.name(), null, now.toEpochMilli(), deadLetter.coordinates(),
                        topics.redrives.valueSerde().serializer().serialize(topics.redrives.name(), record)));
            }
            producer.commitTransaction();
        } catch (ProducerFencedException e) {
            throw new IllegalStateException("another redrive started while this one ran, so nothing of this one was "
                    + "written: run it again (it skips what the other redrove)", e);
        } catch (KafkaException e) {
            try {
                producer.abortTransaction();
            } catch (KafkaException abortFailed) {
                // A producer in a fatal state cannot abort; its transaction times out on the broker, aborted as well.
                e.addSuppressed(abortFailed);
            }
            throw new IllegalStateException("the redrive failed and was rolled back, nothing written: " + e.getMessage(), e);
        }
    }

    /**
     * The dead letter's headers (identity, trace context, origin) with those of a retry due now: the attempt to run
     * (0), when it was due, and the redrive's own, replacing those of an earlier redrive of the task.
     */
    private static Headers retryHeaders(DeadLetter deadLetter, String redriveId, Instant now) {
        Headers headers = OutputHeaders.copy(deadLetter.headers());
        OutputHeaders.put(headers, HeaderNames.ATTEMPT, "0");
        OutputHeaders.put(headers, HeaderNames.DUE_AT, now.toString());
        OutputHeaders.put(headers, HeaderNames.REDRIVE_ID, redriveId);
        OutputHeaders.put(headers, HeaderNames.REDRIVEN_FROM, deadLetter.coordinates());
        return headers;
    }

    private static RedriveReport.Example example(DeadLetter deadLetter) {
        ClassifiedOutcome outcome = deadLetter.outcome();
        return new RedriveReport.Example(outcome.getTaskId(), outcome.getResultId(), outcome.getAgentId(),
                outcome.getErrorCode(), outcome.getDecision() == null || outcome.getDecision().getStopReason() == null
                ? null : outcome.getDecision().getStopReason().name(),
                Instant.ofEpochMilli(outcome.getClassifiedAt()), deadLetter.coordinates());
    }

    private KafkaProducer<String, byte[]> transactionalProducer() {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    /** Reads every committed record of {@code topic} there is now, from its beginning, in no group. */
    private void readToEnd(String topic, Consumer<ConsumerRecord<String, byte[]>> each) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, READ_TIMEOUT).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (partitions.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist: is the service running with this "
                        + "topic.prefix (it creates its topics at start)?");
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p, READ_TIMEOUT) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + READ_TIMEOUT);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        each.accept(record);
                    }
                }
            }
        }
    }
}

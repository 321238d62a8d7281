package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.classify.TaskStates.TaskState;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import io.agentoutcomes.topology.state.WriteBehindStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Classifies each completion of one kind against its task's state, and keeps that state: the failure counts (so retry
 * counting works whether or not producers set {@code attempt}) and the recent result ids (a duplicate is processed
 * once, and forwards nothing). The decisions are {@link Classification}'s; this class adds the store and the counters.
 * <p>
 * A stopped task whose result carries a redrive id it has not seen ({@link HeaderNames#REDRIVE_ID}) starts a new run
 * first: an operator redrove its dead letter after a fix, so it gets a fresh attempt budget, once per redrive.
 * <p>
 * A task is forgotten after the retention ({@link TaskRetention}): an expired entry reads as absent, and a sweep on
 * the wall clock deletes expired entries (tombstones on the changelog), resuming where the last sweep stopped, so the
 * store holds the tasks of one retention period whatever the traffic.
 *
 * @param <V> the completion: {@code AgentResult} or {@code NodeFinished}
 */
public final class TaskClassifier<V> implements Processor<String, V, String, ClassifiedOutcome> {
    /** The task store of agent results. */
    public static final String AGENT_TASKS_STORE = "agent-tasks";
    /** The task store of workflow nodes ({@code jobId/nodeId}). */
    public static final String NODE_TASKS_STORE = "node-tasks";
    /**
     * How many tasks' decoded states a stream task keeps in memory (each a few hundred bytes to a few KB with its
     * recent result ids); the others are read from the store when they come again.
     */
    static final int TASKS_IN_MEMORY = 10_000;
    /** Prefixes a redrive id among a task's recent result ids: no result id the pipeline makes starts with it. */
    static final String REDRIVE_MARK_PREFIX = "redrive:";
    private final RetryPolicy policy;
    private final TaskKind<V> kind;
    private final String storeName;
    private final TaskRetention retention;
    private final BudgetGuard.Factory budgetGuards;
    /** The policy, a random source and the budgets' guard, for every classification of this task (from {@link #init}). */
    private TaskKind.Context classifying;
    /** Made once: a method reference made in {@link #process} would be a new object per record. */
    private final Supplier<String> position = this::position;
    private ProcessorContext<String, ClassifiedOutcome> context;
    private WriteBehindStore<TaskState> tasks;
    private Sensor duplicates;
    private Sensor ignored;
    private Sensor expired;
    private Sensor redriven;
    /** Where the next sweep starts (null: the beginning), and how many tasks were added since the last. */
    private String sweepFrom;
    private int addedSinceSweep;

    TaskClassifier(RetryPolicy policy, TaskKind<V> kind, String storeName, TaskRetention retention,
                   BudgetGuard.Factory budgetGuards) {
        this.policy = policy;
        this.kind = kind;
        this.storeName = storeName;
        this.retention = retention;
        this.budgetGuards = budgetGuards;
    }

    /**
     * The classifier with its task store {@code storeName}: decoded states kept in memory, so a task completed several
     * times within one commit interval is decoded once and written to its changelog once.
     */
    static <V> ProcessorSupplier<String, V, String, ClassifiedOutcome> supplier(RetryPolicy policy, TaskKind<V> kind,
                                                                                String storeName, TaskRetention retention,
                                                                                BudgetGuard.Factory budgetGuards) {
        return new StoreOwningSupplier<>(() -> new TaskClassifier<>(policy, kind, storeName, retention, budgetGuards),
                WriteBehindStore.builder(storeName, TaskStates::new, TASKS_IN_MEMORY));
    }

    @Override
    public void init(ProcessorContext<String, ClassifiedOutcome> context) {
        this.context = context;
        this.tasks = WriteBehindStore.of(context, storeName);
        this.classifying = new TaskKind.Context(policy, new Random(), budgetGuards.open(context));
        duplicates = sensor("duplicates");
        ignored = sensor("ignored-failures");
        expired = sensor("expired-tasks");
        redriven = sensor("redriven-tasks");
        PunctuationWatch.schedule(Punctuators.TASK_CLASSIFIER, context, retention.sweepInterval(), this::sweep);
    }

    private Sensor sensor(String name) {
        return context.metrics().addRateTotalSensor("agent-outcomes-classify", storeName, name, Sensor.RecordingLevel.INFO);
    }

    @Override
    public void process(Record<String, V> record) {
        V value = record.value();
        if (value == null) {
            return;
        }
        long now = context.currentSystemTimeMs();
        String taskId = kind.taskId(value);
        TaskState entry = tasks.read(taskId);
        if (entry == null || entry.expiresAt() <= now) {
            entry = TaskStates.fresh();
            addedSinceSweep++;
        }
        String redriveMark = redriveMark(record);
        if (redriveMark != null && entry.attempts().getStopReason() != null) {
            long mark = TaskStates.fingerprint(redriveMark);
            if (!entry.seen(mark)) {
                entry = entry.redriven(mark);
                redriven.record();
            }
        }
        TaskAttempts state = entry.attempts();
        String resultId = kind.resultId(value, position);
        long fingerprint = TaskStates.fingerprint(resultId);
        if (entry.seen(fingerprint)) {
            duplicates.record();
            return;
        }
        ClassifiedOutcome outcome = kind.classify(value, resultId, state, Instant.ofEpochMilli(now), record.timestamp(),
                classifying);
        if (outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.IGNORE) {
            ignored.record();
        }
        long delay = outcome.getRetryDelayMs() == null ? 0 : outcome.getRetryDelayMs();
        tasks.write(taskId, entry.next(outcome, fingerprint, retention.expiresAt(now, delay)));
        context.forward(record.withKey(taskId).withValue(outcome));
    }

    /**
     * The mark a redrive leaves among a task's recent ids, from the {@link HeaderNames#REDRIVE_ID} header the re-run's
     * result carries (copied by its orchestrator from the retry); null without one. The retries of the re-run carry the
     * header on, and the mark makes it start the task afresh once.
     */
    private static String redriveMark(Record<String, ?> record) {
        Header header = record.headers().lastHeader(HeaderNames.REDRIVE_ID);
        return header == null || header.value() == null ? null
                : REDRIVE_MARK_PREFIX + new String(header.value(), StandardCharsets.UTF_8);
    }

    private String position() {
        return context.recordMetadata()
                .map(source -> source.topic() + "/" + source.partition() + "/" + source.offset()).orElse("unknown");
    }

    /**
     * Deletes expired tasks, examining from where the last sweep stopped four entries for each task added since (or
     * {@link TaskRetention#minPerSweep()} if more), and wrapping around at the end of the store. A full pass over a
     * store of one horizon's tasks then takes at most a quarter of a horizon, so the store holds at most about
     * 1.25 horizons of tasks, whatever the rate.
     */
    void sweep(long now) {
        int budget = Math.max(retention.minPerSweep(), 4 * addedSinceSweep);
        addedSinceSweep = 0;
        int examined = 0;
        try (KeyValueIterator<String, byte[]> entries = tasks.range(sweepFrom, null)) {
            while (entries.hasNext()) {
                KeyValue<String, byte[]> entry = entries.next();
                if (examined == budget) {
                    sweepFrom = entry.key;
                    return;
                }
                examined++;
                if (TaskStates.expiresAt(entry.value) <= now) {
                    tasks.delete(entry.key);
                    expired.record();
                }
            }
        }
        sweepFrom = null;
    }
}

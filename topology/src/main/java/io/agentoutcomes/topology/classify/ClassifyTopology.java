package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceAction;
import io.agentoutcomes.avro.ConfidenceCheck;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Intake;
import io.agentoutcomes.topology.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Classifies every completion and routes it: all to {@code outcomes-classified}, retries to
 * {@code retry-delay-<tier>}, stops to {@code dead-letter}, compensatable failures to {@code compensations}; ignored
 * failures are counted and go nowhere else. Per task, a state store keeps the failure counts (so retry counting works
 * whether or not producers set {@code attempt}) and the recent result ids (a duplicate is processed once). A workflow
 * node is a task too: {@code jobId/nodeId}.
 */
public final class ClassifyTopology {
    public static final String AGENT_TASKS_STORE = "agent-task-attempts";
    public static final String NODE_TASKS_STORE = "node-task-attempts";
    /** How many recent result ids a task remembers for de-duplication. */
    static final int RECENT_RESULT_IDS = 32;
    /** The rule of a retry stopped because its delay is longer than the policy allows. */
    public static final String DELAY_OUT_OF_RANGE = "delay-out-of-range";
    /** How much of a failure's message an outcome repeats in its reason. */
    static final int MAX_REASON_CHARS = 1000;

    private ClassifyTopology() {
    }

    /** Adds classification and routing; returns every classified outcome, for the stages that follow. */
    public static KStream<String, ClassifiedOutcome> build(StreamsBuilder builder, Topics topics, Intake intake,
                                                           RetryPolicy policy) {
        return build(builder, topics, intake, policy, nodeOutcomes -> { });
    }

    /**
     * As above; {@code beforeRouting} gets the outcomes of node events before anything writes them to a topic. Kafka
     * Streams frees a record's raw source bytes once the record reaches a sink, and a stage that may reject a record
     * (the replay fold) must come first, or the rejection it writes to {@code rejected-input} would have no key or value.
     */
    public static KStream<String, ClassifiedOutcome> build(StreamsBuilder builder, Topics topics, Intake intake,
                                                           RetryPolicy policy,
                                                           Consumer<KStream<String, ClassifiedOutcome>> beforeRouting) {
        for (String store : List.of(AGENT_TASKS_STORE, NODE_TASKS_STORE)) {
            builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(store), Serdes.String(),
                    AvroSerde.specific(TaskAttempts.class).configured(topics.serdeConfig, false)));
        }
        KStream<String, ClassifiedOutcome> agentOutcomes = intake.agentResults().process(
                () -> new TaskClassifier<>(policy, AGENT_TASKS, AGENT_TASKS_STORE), Named.as("classify-agent-results"),
                AGENT_TASKS_STORE);
        KStream<String, ClassifiedOutcome> nodeOutcomes = intake.nodeFinished().process(
                () -> new TaskClassifier<>(policy, NODE_TASKS, NODE_TASKS_STORE), Named.as("classify-node-finished"),
                NODE_TASKS_STORE);
        beforeRouting.accept(nodeOutcomes);
        KStream<String, ClassifiedOutcome> outcomes = agentOutcomes.merge(nodeOutcomes, Named.as("all-classified-outcomes"));
        route(outcomes, topics, policy.tiers());
        return outcomes;
    }

    private static void route(KStream<String, ClassifiedOutcome> outcomes, Topics topics, RetryTiers tiers) {
        outcomes.to(topics.outcomesClassified.name(), topics.outcomesClassified.produced());
        outcomes.filter((taskId, outcome) -> isStop(outcome) && outcome.getResultType() != ResultType.COMPENSATABLE_FAILURE,
                        Named.as("stops"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced());
        outcomes.filter((taskId, outcome) -> outcome.getResultType() == ResultType.COMPENSATABLE_FAILURE,
                        Named.as("compensatable"))
                .selectKey((taskId, outcome) -> outcome.getJobId() != null ? outcome.getJobId() : taskId,
                        Named.as("compensations-by-job"))
                .to(topics.compensations.name(), topics.compensations.produced());
        outcomes.filter((taskId, outcome) -> outcome.getConfidenceCheck() != null
                        && outcome.getConfidenceCheck().getAction() == ConfidenceAction.VERIFY, Named.as("verify"))
                .to(topics.verifications.name(), topics.verifications.produced());
        Produced<String, RetryRequest> retryProduced = Produced.with(Serdes.String(),
                topics.retryReady.valueSerde()).withName("delay-retries");
        outcomes.filter((taskId, outcome) -> outcome.getDecision() != null
                        && outcome.getDecision().getHandling() == ErrorHandling.RETRY, Named.as("retries"))
                .mapValues(outcome -> retryRequest(outcome, tiers), Named.as("retry-requests"))
                .to((taskId, retry, context) -> topics.retryDelay.get(retry.getTier()).name(), retryProduced);
    }

    private static boolean isLowConfidenceRetry(ClassifiedOutcome outcome) {
        return outcome.getConfidenceCheck() != null && outcome.getConfidenceCheck().getAction() == ConfidenceAction.RETRY;
    }

    private static boolean isStop(ClassifiedOutcome outcome) {
        return outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.STOP;
    }

    /** What an orchestrator needs to re-run the task. */
    static RetryRequest retryRequest(ClassifiedOutcome outcome, RetryTiers tiers) {
        long delay = outcome.getRetryDelayMs();
        Optional<DailyWindow> daily = outcome.getDecision().getAction() == RetryAction.SWITCH_PROVIDER
                && outcome.getAgentResult() != null
                ? DailyWindow.exhausted(outcome.getAgentResult().getRateLimit(), outcome.getClassifiedAt()) : Optional.empty();
        return RetryRequest.newBuilder()
                .setExhaustedWindow(daily.map(DailyWindow::name).orElse(null))
                .setWindowResetAt(daily.map(DailyWindow::resetAt).orElse(null))
                .setTaskId(outcome.getTaskId())
                .setResultId(outcome.getResultId())
                .setAgentId(outcome.getAgentId())
                .setJobId(outcome.getJobId())
                .setNodeId(outcome.getNodeId())
                .setNextAttempt(outcome.getAttempt() + 1)
                .setErrorCode(isLowConfidenceRetry(outcome) ? ConfidencePolicy.LOW_CONFIDENCE : outcome.getErrorCode())
                .setDelayMs(delay)
                .setDelayReason(outcome.getRetryDelayReason())
                .setTier(tiers.tierFor(Duration.ofMillis(delay)).name())
                .setFailedAt(outcome.getClassifiedAt())
                .setDueAt(outcome.getClassifiedAt().plusMillis(delay))
                .setReason(outcome.getDecision().getReason())
                .setAction(outcome.getDecision().getAction())
                .setAgentResult(outcome.getAgentResult())
                .setNodeFinished(outcome.getNodeFinished())
                .build();
    }

    /**
     * The classified outcome of an agent result, given its task's state before it: what the classifier, the backoff
     * and the tiers make of it. The topology and {@code agent-outcomes explain} both call this.
     */
    public static ClassifiedOutcome classify(AgentResult result, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random) {
        AttemptCount count = AttemptCount.of(before, result.getAttempt(),
                result.getExecution() == null ? null : result.getExecution().getRetryCount());
        int attempt = count.attempt();
        Classifier.Verdict classified = Classifier.keptStopped(policy.classifier().classify(result,
                count.consecutiveBefore(), count.totalBefore()), before.getStopReason());
        int maxRetries = policy.classifier().policyFor(result.getAgentId()).maxRetries();
        Optional<ConfidencePolicy.Check> confidence = classified.resultType() == ResultType.SUCCESS
                ? policy.confidence().check(result.getConfidence(), attempt, maxRetries) : Optional.empty();
        if (confidence.isPresent() && confidence.get().action() == ConfidenceAction.RETRY) {
            // Seed 000's "retry if confidence < 0.8": a retry like a failure's, on the same attempts, yet not a failure.
            ConfidencePolicy.Check check = confidence.get();
            classified = new Classifier.Verdict(classified.resultType(), null, null, classified.reason(),
                    new PolicyDecision(ErrorHandling.RETRY, check.rule(), check.reason(), count.consecutiveBefore(),
                            count.totalBefore(), maxRetries, null));
        }
        Scheduled scheduled = schedule(classified, attempt, result.getRateLimit(), policy, now, random);
        Classifier.Verdict verdict = scheduled.verdict();
        Integer retryCount = verdict.isFinal() ? attempt : null;
        AgentResult copy = result;
        if (retryCount != null) {
            copy = AgentResult.newBuilder(result).build();
            ExecutionMetadata execution = copy.getExecution() == null ? new ExecutionMetadata()
                    : ExecutionMetadata.newBuilder(copy.getExecution()).build();
            execution.setRetryCount(retryCount);
            copy.setExecution(execution);
        }
        ClassifiedOutcome outcome = outcome(result.getTaskId(), result.getResultId(), attempt, scheduled, now)
                .setAgentId(result.getAgentId()).setJobId(result.getJobId()).setNodeId(result.getNodeId())
                .setRetryCount(retryCount).setAgentResult(copy)
                .setConfidenceCheck(confidence.map(check -> ConfidenceCheck.newBuilder().setConfidence(check.confidence())
                        .setThreshold(check.threshold()).setAction(check.action()).setRule(check.rule())
                        .setReason(check.reason()).build()).orElse(null))
                .build();
        if (outcome.getDecision() != null && result.getOutcome() instanceof Failure failure) {
            // Seed 002's ErrorContext: the decision names the tool that failed, as its evaluation context does.
            outcome.getDecision().setToolName(failure.getError().getToolName());
        }
        return outcome;
    }

    /** The classified outcome of a workflow node's completion (task {@code jobId/nodeId}), given its task's state. */
    public static ClassifiedOutcome classify(NodeFinished event, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random) {
        return classify(event, "explain", before, policy, now, random);
    }

    /** As above, for the event read at {@code position} (topic/partition/offset), which identifies it if nothing else does. */
    static ClassifiedOutcome classify(NodeFinished event, String position, TaskAttempts before, RetryPolicy policy,
                                      Instant now, Random random) {
        AttemptCount count = AttemptCount.of(before, event.getAttempt(), null);
        int attempt = count.attempt();
        Scheduled scheduled = schedule(Classifier.keptStopped(policy.classifier().classify(event, count.consecutiveBefore(),
                count.totalBefore()), before.getStopReason()), attempt, null, policy, now, random);
        Classifier.Verdict verdict = scheduled.verdict();
        return outcome(nodeTaskId(event), nodeResultId(event, position), attempt, scheduled, now)
                .setJobId(event.getJobId()).setNodeId(event.getNodeId())
                .setRetryCount(verdict.isFinal() ? attempt : null).setNodeFinished(event).build();
    }

    static String nodeTaskId(NodeFinished event) {
        return event.getJobId() + "/" + event.getNodeId();
    }

    /**
     * A node event's idempotency key: job, node, attempt, result type, and the runner's finish time, so a redelivered
     * event is recognised while distinct events are not merged when a runner leaves {@code attempt} at its default.
     * An event without a finish time is identified by where it was read ({@code position}): reprocessing the same
     * record merges, a re-send of it is a new event.
     */
    static String nodeResultId(NodeFinished event, String position) {
        return nodeTaskId(event) + "/" + event.getAttempt() + "/"
                + (event.getResultType() == null ? "SUCCESS" : event.getResultType().name()) + "/"
                + (event.getTimestamp() != null ? String.valueOf(event.getTimestamp().toEpochMilli()) : "@" + position);
    }

    /**
     * A reason as an outcome carries it: an error message is already in the envelope the outcome carries, so a copy
     * of a long one is cut, and an outcome stays within a few hundred bytes of its input.
     */
    static String cut(String reason) {
        return reason == null || reason.length() <= MAX_REASON_CHARS ? reason
                : reason.substring(0, MAX_REASON_CHARS) + "… (cut, " + reason.length() + " characters)";
    }

    /** A verdict and, for a retry, its delay and how it is to be run. */
    private record Scheduled(Classifier.Verdict verdict, Backoff.Delay delay, RetryAction action) {
        Scheduled(Classifier.Verdict verdict) {
            this(verdict, null, null);
        }
    }

    /** The rule of a retry handed back at once because a daily window is exhausted. */
    public static final String DAILY_LIMIT_SWITCH = "policy.daily-limit=switch";

    /**
     * The delay of a retry; a retry that would wait longer than the policy's maximum (a provider asking for
     * centuries, say) is a stop instead, so no due time can overflow or lie beyond what the scheduler should hold.
     */
    private static Scheduled schedule(Classifier.Verdict verdict, int attempt, RateLimitState rateLimit,
                                      RetryPolicy policy, Instant now, Random random) {
        PolicyDecision decision = verdict.decision();
        if (decision == null || decision.handling() != ErrorHandling.RETRY) {
            return new Scheduled(verdict);
        }
        Optional<DailyWindow> daily = policy.dailyLimit() == DailyLimit.SWITCH ? DailyWindow.exhausted(rateLimit, now)
                : Optional.empty();
        if (daily.isPresent()) {
            PolicyDecision switched = new PolicyDecision(ErrorHandling.RETRY, DAILY_LIMIT_SWITCH, decision.reason(),
                    decision.consecutiveFailures(), decision.totalFailures(), decision.maxRetries(), null);
            return new Scheduled(new Classifier.Verdict(verdict.resultType(), verdict.code(), verdict.category(),
                    verdict.reason(), switched), new Backoff.Delay(Duration.ZERO, daily.get().why()),
                    RetryAction.SWITCH_PROVIDER);
        }
        // A success retried for its confidence has no error code: it waits the default base.
        Backoff.Delay delay = policy.backoff().delay(verdict.code() == null ? ErrorCode.UNKNOWN : verdict.code(), attempt,
                rateLimit, now, random);
        if (delay.duration().compareTo(policy.maxDelay()) <= 0) {
            return new Scheduled(verdict, delay, RetryAction.WAIT);
        }
        PolicyDecision stop = new PolicyDecision(ErrorHandling.STOP, DELAY_OUT_OF_RANGE,
                DELAY_OUT_OF_RANGE + ": " + delay.why() + " is longer than retry.max.delay.ms "
                        + policy.maxDelay().toMillis(),
                decision.consecutiveFailures(), decision.totalFailures(), decision.maxRetries(), StopReason.ERROR);
        return new Scheduled(new Classifier.Verdict(verdict.resultType(), verdict.code(), verdict.category(),
                verdict.reason(), stop));
    }

    private static ClassifiedOutcome.Builder outcome(String taskId, String resultId, int attempt, Scheduled scheduled,
                                                     Instant now) {
        Classifier.Verdict verdict = scheduled.verdict();
        ClassifiedOutcome.Builder outcome = ClassifiedOutcome.newBuilder()
                .setTaskId(taskId)
                .setResultId(resultId)
                .setAttempt(attempt)
                .setResultType(verdict.resultType())
                .setErrorCode(verdict.code() == null ? null : verdict.code().value())
                .setErrorCategory(verdict.category())
                .setReason(cut(verdict.reason()))
                .setClassifiedAt(now);
        PolicyDecision decision = verdict.decision();
        if (decision != null) {
            outcome.setDecision(Decision.newBuilder().setHandling(decision.handling()).setRule(decision.rule())
                    .setReason(decision.reason()).setConsecutiveFailures(decision.consecutiveFailures())
                    .setTotalFailures(decision.totalFailures()).setMaxRetries(decision.maxRetries())
                    .setStopReason(decision.stopReason()).setAction(scheduled.action()).build());
        }
        if (scheduled.delay() != null) {
            outcome.setRetryDelayMs(scheduled.delay().duration().toMillis()).setRetryDelayReason(scheduled.delay().why());
        }
        return outcome;
    }

    /**
     * The task's state after an outcome, the result id remembered: a stop is kept with its counts; a success, skip or
     * ignored failure starts the next run afresh (consecutive failures and attempts, not total failures).
     */
    static TaskAttempts next(TaskAttempts state, ClassifiedOutcome outcome) {
        List<String> recent = new ArrayList<>(state.getRecentResultIds());
        recent.add(outcome.getResultId());
        if (recent.size() > RECENT_RESULT_IDS) {
            recent.subList(0, recent.size() - RECENT_RESULT_IDS).clear();
        }
        TaskAttempts.Builder next = TaskAttempts.newBuilder().setRecentResultIds(recent);
        if (outcome.getResultType() == ResultType.IN_PROGRESS) {
            return next.setAttempts(state.getAttempts()).setConsecutiveFailures(state.getConsecutiveFailures())
                    .setTotalFailures(state.getTotalFailures()).build();
        }
        Decision decision = outcome.getDecision();
        if (decision != null && decision.getHandling() == ErrorHandling.STOP) {
            // A stopped task stays stopped: its counts go on and a later failure stops again with the same reason.
            return next.setAttempts(outcome.getAttempt() + 1).setConsecutiveFailures(decision.getConsecutiveFailures())
                    .setTotalFailures(decision.getTotalFailures()).setStopReason(decision.getStopReason()).build();
        }
        if (outcome.getRetryCount() != null) {
            // Over (a success, a skip, an ignored failure): the next run starts afresh, but total failures are the task's.
            return next.setAttempts(0).setConsecutiveFailures(0)
                    .setTotalFailures(decision == null ? state.getTotalFailures() : decision.getTotalFailures()).build();
        }
        return next.setAttempts(outcome.getAttempt() + 1)
                .setConsecutiveFailures(decision.getConsecutiveFailures())
                .setTotalFailures(decision.getTotalFailures()).build();
    }

    /** How one kind of completion is identified and classified. */
    private interface TaskKind<V> {
        String taskId(V value);

        String resultId(V value, String position);

        ClassifiedOutcome classify(V value, String position, TaskAttempts before, RetryPolicy policy, Instant now,
                                   Random random);
    }

    private static final TaskKind<AgentResult> AGENT_TASKS = new TaskKind<>() {
        @Override
        public String taskId(AgentResult value) {
            return value.getTaskId();
        }

        @Override
        public String resultId(AgentResult value, String position) {
            return value.getResultId();
        }

        @Override
        public ClassifiedOutcome classify(AgentResult value, String position, TaskAttempts before, RetryPolicy policy,
                                          Instant now, Random random) {
            return ClassifyTopology.classify(value, before, policy, now, random);
        }
    };

    private static final TaskKind<NodeFinished> NODE_TASKS = new TaskKind<>() {
        @Override
        public String taskId(NodeFinished value) {
            return nodeTaskId(value);
        }

        @Override
        public String resultId(NodeFinished value, String position) {
            return nodeResultId(value, position);
        }

        @Override
        public ClassifiedOutcome classify(NodeFinished value, String position, TaskAttempts before, RetryPolicy policy,
                                          Instant now, Random random) {
            return ClassifyTopology.classify(value, position, before, policy, now, random);
        }
    };

    /** Task state, de-duplication and counters around {@link TaskKind#classify}. */
    private static final class TaskClassifier<V> implements Processor<String, V, String, ClassifiedOutcome> {
        private final RetryPolicy policy;
        private final TaskKind<V> kind;
        private final String storeName;
        private final Random random = new Random();
        private ProcessorContext<String, ClassifiedOutcome> context;
        private KeyValueStore<String, TaskAttempts> tasks;
        private Sensor duplicates;
        private Sensor ignored;

        TaskClassifier(RetryPolicy policy, TaskKind<V> kind, String storeName) {
            this.policy = policy;
            this.kind = kind;
            this.storeName = storeName;
        }

        @Override
        public void init(ProcessorContext<String, ClassifiedOutcome> context) {
            this.context = context;
            this.tasks = context.getStateStore(storeName);
            duplicates = context.metrics().addRateTotalSensor("agent-outcomes-classify", storeName, "duplicates",
                    Sensor.RecordingLevel.INFO);
            ignored = context.metrics().addRateTotalSensor("agent-outcomes-classify", storeName, "ignored-failures",
                    Sensor.RecordingLevel.INFO);
        }

        @Override
        public void process(Record<String, V> record) {
            V value = record.value();
            if (value == null) {
                return;
            }
            String taskId = kind.taskId(value);
            TaskAttempts state = tasks.get(taskId);
            if (state == null) {
                state = TaskAttempts.newBuilder().build();
            }
            String position = context.recordMetadata()
                    .map(source -> source.topic() + "/" + source.partition() + "/" + source.offset()).orElse("unknown");
            if (state.getRecentResultIds().contains(kind.resultId(value, position))) {
                duplicates.record();
                return;
            }
            ClassifiedOutcome outcome = kind.classify(value, position, state, policy,
                    Instant.ofEpochMilli(context.currentSystemTimeMs()), random);
            if (outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.IGNORE) {
                ignored.record();
            }
            tasks.put(taskId, next(state, outcome));
            context.forward(record.withKey(taskId).withValue(outcome));
        }
    }
}

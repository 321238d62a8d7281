package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Intake;
import io.agentoutcomes.topology.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

    private ClassifyTopology() {
    }

    public static void build(StreamsBuilder builder, Topics topics, Intake intake, RetryPolicy policy) {
        for (String store : List.of(AGENT_TASKS_STORE, NODE_TASKS_STORE)) {
            builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(store), Serdes.String(),
                    AvroSerde.specific(TaskAttempts.class).configured(topics.serdeConfig, false)));
        }
        KStream<String, ClassifiedOutcome> agentOutcomes = intake.agentResults().process(
                () -> new AgentResultClassifier(policy), Named.as("classify-agent-results"), AGENT_TASKS_STORE);
        KStream<String, ClassifiedOutcome> nodeOutcomes = intake.nodeFinished().process(
                () -> new NodeFinishedClassifier(policy), Named.as("classify-node-finished"), NODE_TASKS_STORE);
        route(agentOutcomes.merge(nodeOutcomes, Named.as("all-classified-outcomes")), topics, policy.tiers());
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
        Produced<String, RetryRequest> retryProduced = Produced.with(Serdes.String(),
                topics.retryReady.valueSerde()).withName("delay-retries");
        outcomes.filter((taskId, outcome) -> outcome.getDecision() != null
                        && outcome.getDecision().getHandling() == ErrorHandling.RETRY, Named.as("retries"))
                .mapValues(outcome -> retryRequest(outcome, tiers), Named.as("retry-requests"))
                .to((taskId, retry, context) -> topics.retryDelay.get(retry.getTier()).name(), retryProduced);
    }

    private static boolean isStop(ClassifiedOutcome outcome) {
        return outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.STOP;
    }

    /** What an orchestrator needs to re-run the task. */
    static RetryRequest retryRequest(ClassifiedOutcome outcome, RetryTiers tiers) {
        long delay = outcome.getRetryDelayMs();
        return RetryRequest.newBuilder()
                .setTaskId(outcome.getTaskId())
                .setResultId(outcome.getResultId())
                .setAgentId(outcome.getAgentId())
                .setJobId(outcome.getJobId())
                .setNodeId(outcome.getNodeId())
                .setNextAttempt(outcome.getAttempt() + 1)
                .setErrorCode(outcome.getErrorCode())
                .setDelayMs(delay)
                .setDelayReason(outcome.getRetryDelayReason())
                .setTier(tiers.tierFor(Duration.ofMillis(delay)).name())
                .setFailedAt(outcome.getClassifiedAt())
                .setDueAt(outcome.getClassifiedAt().plusMillis(delay))
                .setReason(outcome.getDecision().getReason())
                .setAgentResult(outcome.getAgentResult())
                .setNodeFinished(outcome.getNodeFinished())
                .build();
    }

    /** The shared part: task state, de-duplication, the retry delay, and the outcome record. */
    private abstract static class TaskClassifier<V> implements Processor<String, V, String, ClassifiedOutcome> {
        final RetryPolicy policy;
        private final String storeName;
        private final Random random = new Random();
        private ProcessorContext<String, ClassifiedOutcome> context;
        private KeyValueStore<String, TaskAttempts> tasks;
        private Sensor duplicates;
        private Sensor ignored;

        TaskClassifier(RetryPolicy policy, String storeName) {
            this.policy = policy;
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

        abstract String taskId(String key, V value);

        abstract String resultId(V value);

        abstract int reportedAttempt(V value);

        abstract Classifier.Verdict classify(V value, TaskAttempts state);

        abstract ClassifiedOutcome.Builder describe(String taskId, V value, Classifier.Verdict verdict, Integer retryCount);

        abstract RateLimitState rateLimit(V value);

        @Override
        public void process(Record<String, V> record) {
            V value = record.value();
            if (value == null) {
                return;
            }
            String taskId = taskId(record.key(), value);
            TaskAttempts state = tasks.get(taskId);
            if (state == null) {
                state = TaskAttempts.newBuilder().build();
            }
            String resultId = resultId(value);
            if (state.getRecentResultIds().contains(resultId)) {
                duplicates.record();
                return;
            }
            int attempt = Math.max(state.getAttempts(), reportedAttempt(value));
            Classifier.Verdict verdict = classify(value, state);
            Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
            ClassifiedOutcome.Builder outcome = describe(taskId, value, verdict, verdict.isFinal() ? attempt : null)
                    .setTaskId(taskId)
                    .setResultId(resultId)
                    .setAttempt(attempt)
                    .setResultType(verdict.resultType())
                    .setErrorCode(verdict.code() == null ? null : verdict.code().value())
                    .setErrorCategory(verdict.category())
                    .setReason(verdict.reason())
                    .setClassifiedAt(now);
            PolicyDecision decision = verdict.decision();
            if (decision != null) {
                outcome.setDecision(Decision.newBuilder().setHandling(decision.handling()).setRule(decision.rule())
                        .setReason(decision.reason()).setConsecutiveFailures(decision.consecutiveFailures())
                        .setTotalFailures(decision.totalFailures()).setMaxRetries(decision.maxRetries())
                        .setStopReason(decision.stopReason()).build());
                if (decision.handling() == ErrorHandling.RETRY) {
                    Backoff.Delay delay = policy.backoff().delay(verdict.code(), attempt, rateLimit(value), now, random);
                    outcome.setRetryDelayMs(delay.duration().toMillis()).setRetryDelayReason(delay.why());
                } else if (decision.handling() == ErrorHandling.IGNORE) {
                    ignored.record();
                }
            }
            tasks.put(taskId, next(state, verdict, attempt, resultId));
            context.forward(record.withKey(taskId).withValue(outcome.build()));
        }

        /** The task's state after this completion: counts reset once the task is over, result id remembered. */
        private static TaskAttempts next(TaskAttempts state, Classifier.Verdict verdict, int attempt, String resultId) {
            List<String> recent = new ArrayList<>(state.getRecentResultIds());
            recent.add(resultId);
            if (recent.size() > RECENT_RESULT_IDS) {
                recent.subList(0, recent.size() - RECENT_RESULT_IDS).clear();
            }
            TaskAttempts.Builder next = TaskAttempts.newBuilder().setRecentResultIds(recent);
            if (verdict.resultType() == ResultType.IN_PROGRESS) {
                return next.setAttempts(state.getAttempts()).setConsecutiveFailures(state.getConsecutiveFailures())
                        .setTotalFailures(state.getTotalFailures()).build();
            }
            if (verdict.isFinal()) {
                return next.setAttempts(0).setConsecutiveFailures(0).setTotalFailures(0).build();
            }
            return next.setAttempts(attempt + 1).setConsecutiveFailures(verdict.decision().consecutiveFailures())
                    .setTotalFailures(verdict.decision().totalFailures()).build();
        }
    }

    private static final class AgentResultClassifier extends TaskClassifier<AgentResult> {
        AgentResultClassifier(RetryPolicy policy) {
            super(policy, AGENT_TASKS_STORE);
        }

        @Override
        String taskId(String key, AgentResult value) {
            return value.getTaskId();
        }

        @Override
        String resultId(AgentResult value) {
            return value.getResultId();
        }

        @Override
        int reportedAttempt(AgentResult value) {
            return value.getAttempt();
        }

        @Override
        Classifier.Verdict classify(AgentResult value, TaskAttempts state) {
            return policy.classifier().classify(value, state.getConsecutiveFailures(), state.getTotalFailures());
        }

        @Override
        RateLimitState rateLimit(AgentResult value) {
            return value.getRateLimit();
        }

        @Override
        ClassifiedOutcome.Builder describe(String taskId, AgentResult value, Classifier.Verdict verdict, Integer retryCount) {
            AgentResult result = value;
            if (retryCount != null) {
                result = AgentResult.newBuilder(value).build();
                ExecutionMetadata execution = result.getExecution() == null ? new ExecutionMetadata()
                        : ExecutionMetadata.newBuilder(result.getExecution()).build();
                execution.setRetryCount(retryCount);
                result.setExecution(execution);
            }
            return ClassifiedOutcome.newBuilder().setAgentId(value.getAgentId()).setJobId(value.getJobId())
                    .setNodeId(value.getNodeId()).setRetryCount(retryCount).setAgentResult(result);
        }
    }

    private static final class NodeFinishedClassifier extends TaskClassifier<NodeFinished> {
        NodeFinishedClassifier(RetryPolicy policy) {
            super(policy, NODE_TASKS_STORE);
        }

        @Override
        String taskId(String key, NodeFinished value) {
            return value.getJobId() + "/" + value.getNodeId();
        }

        @Override
        String resultId(NodeFinished value) {
            return value.getJobId() + "/" + value.getNodeId() + "/" + value.getAttempt() + "/"
                    + (value.getResultType() == null ? "SUCCESS" : value.getResultType().name());
        }

        @Override
        int reportedAttempt(NodeFinished value) {
            return value.getAttempt();
        }

        @Override
        Classifier.Verdict classify(NodeFinished value, TaskAttempts state) {
            return policy.classifier().classify(value, state.getConsecutiveFailures(), state.getTotalFailures());
        }

        @Override
        RateLimitState rateLimit(NodeFinished value) {
            return null;
        }

        @Override
        ClassifiedOutcome.Builder describe(String taskId, NodeFinished value, Classifier.Verdict verdict, Integer retryCount) {
            return ClassifiedOutcome.newBuilder().setJobId(value.getJobId()).setNodeId(value.getNodeId())
                    .setRetryCount(retryCount).setNodeFinished(value);
        }
    }
}

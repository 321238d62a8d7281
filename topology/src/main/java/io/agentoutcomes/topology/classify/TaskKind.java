package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;

/** How one kind of completion is identified and classified: agent results, and workflow nodes' events. */
interface TaskKind<V> {
    String taskId(V value);

    /** The completion's idempotency key; {@code position} (topic/partition/offset) is asked for only where needed. */
    String resultId(V value, Supplier<String> position);

    /**
     * What a task's classifier hands every classification of its completions: made once per stream task, so a record
     * costs no object for it.
     */
    record Context(RetryPolicy policy, Random random, BudgetGuard budgets) {
    }

    /** @param eventTime the completion's record timestamp, which decides the budget period its retry is checked in */
    ClassifiedOutcome classify(V value, String resultId, TaskAttempts before, Instant now, long eventTime, Context context);

    TaskKind<AgentResult> AGENT_RESULTS = new TaskKind<>() {
        @Override
        public String taskId(AgentResult value) {
            return value.getTaskId();
        }

        @Override
        public String resultId(AgentResult value, Supplier<String> position) {
            return value.getResultId();
        }

        @Override
        public ClassifiedOutcome classify(AgentResult value, String resultId, TaskAttempts before, Instant now,
                                          long eventTime, Context context) {
            return Classification.classify(value, before, context.policy(), now, context.random(), context.budgets(),
                    eventTime);
        }
    };

    TaskKind<NodeFinished> NODE_FINISHED = new TaskKind<>() {
        @Override
        public String taskId(NodeFinished value) {
            return NodeIds.taskId(value);
        }

        @Override
        public String resultId(NodeFinished value, Supplier<String> position) {
            return NodeIds.resultId(value, value.getTimestamp() != null ? null : position.get());
        }

        @Override
        public ClassifiedOutcome classify(NodeFinished value, String resultId, TaskAttempts before, Instant now,
                                          long eventTime, Context context) {
            // A node's event names no agent and carries no cost: no budget counts it.
            return Classification.classifyNode(value, resultId, before, context.policy(), now, context.random());
        }
    };
}

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

    /** @param eventTime the completion's record timestamp, which decides the budget period its retry is checked in */
    ClassifiedOutcome classify(V value, String resultId, TaskAttempts before, RetryPolicy policy, Instant now,
                               Random random, BudgetGuard budgets, long eventTime);

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
        public ClassifiedOutcome classify(AgentResult value, String resultId, TaskAttempts before, RetryPolicy policy,
                                          Instant now, Random random, BudgetGuard budgets, long eventTime) {
            return Classification.classify(value, before, policy, now, random, budgets, eventTime);
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
        public ClassifiedOutcome classify(NodeFinished value, String resultId, TaskAttempts before, RetryPolicy policy,
                                          Instant now, Random random, BudgetGuard budgets, long eventTime) {
            // A node's event names no agent and carries no cost: no budget counts it.
            return Classification.classifyNode(value, resultId, before, policy, now, random);
        }
    };
}

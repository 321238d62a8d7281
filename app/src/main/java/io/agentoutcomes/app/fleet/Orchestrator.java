package io.agentoutcomes.app.fleet;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.client.DueRetry;
import io.agentoutcomes.client.NodeEventBuilder;
import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.client.ResultBuilder;
import io.agentoutcomes.client.RetryHandler;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fleet's orchestrator: for each retry the pipeline hands back, re-runs the task as the next attempt and publishes
 * the result. A re-run succeeds with a probability drawn from the seed, the task and the attempt (so the same seed
 * gives every task the same fate, whatever the timing); otherwise it fails again with the same error, so some tasks
 * succeed on their second or third attempt and some reach the retry limit. A retry that carries a fallback model (a
 * declared chain, issue 33) is re-run on that model; else on {@code SWITCH_PROVIDER} it re-runs on another provider.
 * Counts every retry it is handed, and those handed before their due time.
 */
final class Orchestrator implements RetryHandler {
    private final OutcomePublisher publisher;
    private final SentLedger ledger;
    private final long seed;
    private final double successProbability;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong early = new AtomicLong();
    private final AtomicLong reruns = new AtomicLong();
    private final AtomicLong rerunSuccesses = new AtomicLong();
    private final AtomicLong providerSwitches = new AtomicLong();
    private final AtomicLong fallbackReruns = new AtomicLong();
    private volatile boolean rerunning = true;
    private final boolean reportCosts;

    Orchestrator(OutcomePublisher publisher, SentLedger ledger, long seed, double successProbability, boolean reportCosts) {
        this.reportCosts = reportCosts;
        this.publisher = publisher;
        this.ledger = ledger;
        this.seed = seed;
        this.successProbability = successProbability;
    }

    /** From now on retries are counted but not re-run: the fleet is winding down. */
    void stopRerunning() {
        rerunning = false;
    }

    @Override
    public void onRetry(DueRetry retry) {
        received.incrementAndGet();
        if (retry.early()) {
            early.incrementAndGet();
        }
        if (!rerunning) {
            return;
        }
        boolean succeeds = new Random(seed * 1_000_003L + (retry.taskId() + "#" + retry.nextAttempt()).hashCode())
                .nextDouble() < successProbability;
        if (retry.failedResult() != null) {
            rerun(retry, retry.failedResult(), succeeds);
        } else if (retry.failedNode() != null) {
            rerun(retry, retry.failedNode(), succeeds);
        } else {
            return;
        }
        reruns.incrementAndGet();
        if (succeeds) {
            rerunSuccesses.incrementAndGet();
        }
    }

    private void rerun(DueRetry retry, AgentResult failed, boolean succeeds) {
        Catalog.Model model = Catalog.MODELS.stream().filter(m -> m.name().equals(retry.model())).findFirst()
                .orElse(Catalog.MODELS.get(0));
        if (retry.fallback()) {
            fallbackReruns.incrementAndGet();
            model = Catalog.MODELS.stream().filter(m -> m.provider().equals(retry.runOnProvider()) && m.name().equals(retry.runOnModel()))
                    .findFirst().orElse(new Catalog.Model(retry.runOnProvider(), retry.runOnModel(), "0", "0", "0", "0"));
        } else if (retry.action() == RetryAction.SWITCH_PROVIDER) {
            providerSwitches.incrementAndGet();
            Catalog.Model current = model;
            model = Catalog.MODELS.stream().filter(m -> !m.provider().equals(current.provider())).findFirst().orElseThrow();
        }
        Random random = new Random(seed ^ retry.taskId().hashCode() ^ retry.nextAttempt());
        Catalog.Tokens tokens = Catalog.tokens(random);
        BigDecimal[] cost = Catalog.cost(model, tokens);
        ledger.tally(model.name(), tokens, reportCosts ? Catalog.total(cost) : BigDecimal.ZERO);
        ResultBuilder result = ResultBuilder.of(failed.getAgentId(), failed.getTaskId()).attempt(retry.nextAttempt())
                .job(failed.getJobId(), failed.getNodeId()).model(model.provider(), model.name())
                .duration(Duration.ofMillis(300 + random.nextInt(6_000)))
                .usage(tokens.reportedInput(model), tokens.output(), tokens.cacheRead(), tokens.cacheWrite());
        if (reportCosts) {
            result.cost(cost[0], cost[1], cost[2], cost[3]);
        }
        AgentResult rerun;
        if (succeeds) {
            rerun = result.success("{\"rerun\":" + retry.nextAttempt() + "}");
        } else {
            ErrorInfo error = failed.getOutcome() instanceof Failure f ? f.getError()
                    : ErrorInfo.newBuilder().setCode(retry.errorCode()).build();
            if (retry.errorCode().equals(ErrorCode.LLM_RATE_LIMIT.value())) {
                result.rateLimit(true, Duration.ofSeconds(1));
            }
            rerun = result.error(ErrorInfo.newBuilder(error).build());
        }
        ledger.track(publisher.publish(rerun, retry), publisher.topics().agentResults());
    }

    private void rerun(DueRetry retry, NodeFinished failed, boolean succeeds) {
        NodeEventBuilder event = NodeEventBuilder.of(failed.getJobId(), failed.getNodeId()).attempt(retry.nextAttempt())
                .duration(Duration.ofMillis(100 + Math.abs(retry.taskId().hashCode() % 3_000)))
                .spans(failed.getTraceSpanId(), failed.getParentSpanId());
        if (failed.getStepIndex() != null) {
            event.stepIndex(failed.getStepIndex());
        }
        NodeFinished rerun = succeeds ? event.success() : event.retryableFailure("upstream timeout");
        ledger.track(publisher.publish(rerun, retry), publisher.topics().nodeFinished());
    }

    long received() {
        return received.get();
    }

    long early() {
        return early.get();
    }

    long reruns() {
        return reruns.get();
    }

    long rerunSuccesses() {
        return rerunSuccesses.get();
    }

    long providerSwitches() {
        return providerSwitches.get();
    }

    long fallbackReruns() {
        return fallbackReruns.get();
    }
}

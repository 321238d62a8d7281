package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryBudgetSlice;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import java.util.ArrayList;

/**
 * A scope's retry budget (issue 33): its requests (the outcomes the gate hears of) and the retries it released, kept in
 * {@value #SLICES} slices of a sliding window. The retries released in the window are at most the percent of its
 * requests plus the reserve (the floor per second times the window), as Finagle's and tower's budgets; Envoy's
 * {@code budget_percent} is the same 20 %. Conservative at the edges: a request counts only while its whole slice is in
 * the window, a release as long as any of its slice is, so no window of the length holds more releases than the budget
 * allowed at its end.
 */
final class RetryBudget {
    /** The sliding window is kept in this many slices. */
    static final int SLICES = 10;

    private RetryBudget() {
    }

    /** Takes a tally's outcomes into the window's requests, in the slice of its end. */
    static void observe(ProviderState state, long requests, long at, RetryBudgetSettings settings) {
        if (requests > 0) {
            RetryBudgetSlice slice = slice(state, at, settings);
            slice.setRequests(slice.getRequests() + requests);
        }
    }

    /** Counts {@code count} retries released at {@code now}. */
    static void spend(ProviderState state, long count, long now, RetryBudgetSettings settings) {
        RetryBudgetSlice slice = slice(state, now, settings);
        slice.setRetries(slice.getRetries() + count);
    }

    /** How many more retries the budget allows now. */
    static long allowance(ProviderState state, long now, RetryBudgetSettings settings) {
        long window = settings.window().toMillis();
        long length = length(settings);
        long windowStart = now - window;
        if (state.getRetrySlices().stream().anyMatch(slice -> slice.getStart() + length <= windowStart)) {
            // A new list, not an iterator's remove: a state read from the store holds Avro arrays, which cannot remove.
            state.setRetrySlices(new ArrayList<>(state.getRetrySlices().stream()
                    .filter(slice -> slice.getStart() + length > windowStart).toList()));
        }
        long requests = 0;
        long retries = 0;
        for (RetryBudgetSlice slice : state.getRetrySlices()) {
            retries += slice.getRetries();
            if (slice.getStart() >= windowStart) {
                requests += slice.getRequests();
            }
        }
        long budget = (long) Math.floor(settings.percent() * requests / 100.0) + settings.reserve();
        return Math.max(0, budget - retries);
    }

    /** The requests of the window, as {@link #allowance} counts them (for {@code /providers} and the meters). */
    static long requests(ProviderState state, long now, RetryBudgetSettings settings) {
        long windowStart = now - settings.window().toMillis();
        return state.getRetrySlices().stream().filter(slice -> slice.getStart() >= windowStart)
                .mapToLong(RetryBudgetSlice::getRequests).sum();
    }

    /**
     * The dead letter of a retry held past the max hold while the budget was spent: a stop, reason
     * {@link StopReason#RETRY_BUDGET_EXHAUSTED}, with the rule naming the setting; redrivable as any other.
     */
    static ClassifiedOutcome stopped(RetryRequest retry, ProviderState state, long now, RetryBudgetSettings settings) {
        String scope = state.getModel() == null ? state.getProvider() : state.getProvider() + "/" + state.getModel();
        String reason = String.format("Retry %d of %s held %d s past its due time: %s's retry budget (%s %% of its "
                        + "requests and %s a second over %d s) was spent since %d s before", retry.getNextAttempt(),
                retry.getErrorCode(), (now - retry.getDueAt()) / 1_000, scope, number(settings.percent()),
                number(settings.minPerSecond()), settings.window().toSeconds(), (now - state.getBudgetExhaustedSince()) / 1_000);
        int failures = Math.max(1, retry.getNextAttempt());
        Decision decision = Decision.newBuilder().setHandling(ErrorHandling.STOP)
                .setRule("provider.retry.budget.max.hold.ms=" + settings.maxHold().toMillis()).setReason(reason)
                .setConsecutiveFailures(failures).setTotalFailures(failures).setMaxRetries(0)
                .setStopReason(StopReason.RETRY_BUDGET_EXHAUSTED).build();
        return ClassifiedOutcome.newBuilder().setTaskId(retry.getTaskId()).setResultId(retry.getResultId())
                .setAgentId(retry.getAgentId()).setJobId(retry.getJobId()).setNodeId(retry.getNodeId())
                .setAttempt(Math.max(0, retry.getNextAttempt() - 1)).setResultType(ResultType.RETRYABLE_FAILURE)
                .setErrorCode(retry.getErrorCode())
                .setErrorCategory(ErrorCode.fromValue(retry.getErrorCode()).map(ErrorCode::category).orElse(null))
                .setReason(reason).setDecision(decision).setClassifiedAt(now).setAgentResult(retry.getAgentResult())
                .setNodeFinished(retry.getNodeFinished()).build();
    }

    private static long length(RetryBudgetSettings settings) {
        return Math.max(1, settings.window().toMillis() / SLICES);
    }

    private static RetryBudgetSlice slice(ProviderState state, long at, RetryBudgetSettings settings) {
        long length = length(settings);
        long start = at - Math.floorMod(at, length);
        for (RetryBudgetSlice existing : state.getRetrySlices()) {
            if (existing.getStart() == start) {
                return existing;
            }
        }
        RetryBudgetSlice slice = new RetryBudgetSlice(start, 0L, 0L);
        state.getRetrySlices().add(slice);
        return slice;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}

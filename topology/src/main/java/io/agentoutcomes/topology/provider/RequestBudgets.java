package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RequestBudget;
import io.agentoutcomes.topology.ratelimit.WindowLength;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A scope's request budgets, one per request window the provider advertises: a token bucket holding at most what one
 * check of the gate releases (its burst: the limit's share of a check interval, at least one), refilled at the limit
 * less that burst per window length and check interval, never refilled before an exhausted window's reset. So no window of the window's
 * length ever holds more releases than the limit (at most the burst at its start, and the refill after), whatever came
 * before it: a backlog, an idle spell, or a restart after downtime. An
 * advertisement only ever lowers what the bucket holds (the provider counts traffic the pipeline does not see), so
 * retries alone never exceed what the provider last said it allows; refilling smoothly, not all at the reset, is
 * what keeps a fleet's retries from arriving as a herd. Token windows are not paced (a retry's tokens are not known
 * before it runs); their resets already delay each retry through the backoff.
 */
final class RequestBudgets {
    private RequestBudgets() {
    }

    /** Whether a window counts requests (rather than tokens). */
    static boolean countsRequests(RateLimitWindow window) {
        String resource = window.getResource() == null ? "" : window.getResource().toLowerCase(Locale.ROOT);
        return resource.equals("requests") || resource.isEmpty() && window.getName().toLowerCase(Locale.ROOT).contains("request");
    }

    /**
     * Takes the request windows a provider advertised at {@code at} into the scope's budgets, each only if newer than
     * what its budget last took.
     */
    static void advertise(ProviderState state, List<RateLimitWindow> windows, long at, long now, Duration defaultWindow,
                          long checkMs) {
        for (RateLimitWindow window : windows) {
            if (!countsRequests(window) || window.getRemaining() == null && window.getLimit() == null) {
                continue;
            }
            RequestBudget budget = find(state, window.getName());
            if (budget != null && at <= budget.getAdvertisedAt()) {
                continue;
            }
            long length = WindowLength.millisOf(window).orElse(defaultWindow.toMillis());
            Long limit = window.getLimit() != null && window.getLimit() > 0 ? window.getLimit() : null;
            if (budget == null) {
                double start = window.getRemaining() != null ? window.getRemaining() : limit;
                budget = RequestBudget.newBuilder().setWindow(window.getName()).setLimit(limit).setLengthMs(length)
                        .setTokens(limit == null ? start : Math.min(start, burst(limit, length, checkMs))).setUpdatedAt(now)
                        .setBlockedUntil(0).setAdvertisedAt(at).build();
                state.getBudgets().add(budget);
            } else {
                refill(budget, now, checkMs);
                budget.setLimit(limit != null ? limit : budget.getLimit());
                budget.setLengthMs(length);
                budget.setAdvertisedAt(at);
                if (window.getRemaining() != null) {
                    budget.setTokens(Math.min(budget.getTokens(), window.getRemaining()));
                }
            }
            if (window.getRemaining() != null && window.getRemaining() == 0) {
                // Never blocked longer than one window: a reset far off (or hostile) must not hold retries for ever.
                long reset = Math.min(resetAt(window, at, length), at + length);
                budget.setBlockedUntil(Math.max(budget.getBlockedUntil(), reset));
            }
        }
    }

    /** How many retries the budgets allow now; {@link Long#MAX_VALUE} where there is none. */
    static long allowance(ProviderState state, long now, long checkMs) {
        long allowed = Long.MAX_VALUE;
        boolean expired = false;
        for (RequestBudget budget : state.getBudgets()) {
            refill(budget, now, checkMs);
            if (spent(budget, now)) {
                expired = true;
            } else {
                allowed = Math.min(allowed, (long) Math.floor(Math.max(0, budget.getTokens())));
            }
        }
        if (expired) {
            // A new list, not an iterator's remove: a state read from the store holds Avro arrays, which cannot remove.
            state.setBudgets(new ArrayList<>(state.getBudgets().stream().filter(budget -> !spent(budget, now)).toList()));
        }
        return allowed;
    }

    /** Without a limit, a budget only says "none until the reset"; past it, it says nothing. */
    private static boolean spent(RequestBudget budget, long now) {
        return budget.getLimit() == null && now >= budget.getBlockedUntil();
    }

    /** Takes {@code count} released retries from every budget. */
    static void spend(ProviderState state, long count) {
        for (RequestBudget budget : state.getBudgets()) {
            budget.setTokens(budget.getTokens() - count);
        }
    }

    /**
     * The bucket refilled up to {@code now}, from its reset if it was exhausted: at the limit less the burst per length
     * and check interval, up to the burst and one check's refill (so a backlog drained check by check loses no fraction
     * of a request). A window of the length then holds at most that, and the length's refill: the limit.
     */
    static void refill(RequestBudget budget, long now, long checkMs) {
        long from = Math.max(budget.getUpdatedAt(), budget.getBlockedUntil());
        if (budget.getLimit() != null && now > from) {
            long burst = burst(budget.getLimit(), budget.getLengthMs(), checkMs);
            double perMs = (double) Math.max(1, budget.getLimit() - burst) / (budget.getLengthMs() + checkMs);
            double refilled = budget.getTokens() + (now - from) * perMs;
            budget.setTokens(Math.min(burst + perMs * checkMs, refilled));
        }
        budget.setUpdatedAt(Math.max(budget.getUpdatedAt(), now));
    }

    /** What one check of every {@code checkMs} may release of a limit per length: its share, at least one. */
    static long burst(long limit, long lengthMs, long checkMs) {
        return Math.min(limit, Math.max(1, (long) Math.ceil((double) limit * checkMs / lengthMs)));
    }

    private static long resetAt(RateLimitWindow window, long at, long length) {
        if (window.getResetAtMs() != null) {
            return window.getResetAtMs();
        }
        if (window.getResetsInMs() != null) {
            return at + Math.min(window.getResetsInMs(), length);
        }
        return at + length;
    }

    private static RequestBudget find(ProviderState state, String window) {
        for (RequestBudget budget : state.getBudgets()) {
            if (budget.getWindow().equals(window)) {
                return budget;
            }
        }
        return null;
    }
}

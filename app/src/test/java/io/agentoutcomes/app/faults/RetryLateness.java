package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.RetryRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;

/**
 * How late the retries that fell due while the service was down became visible on {@code retry-ready}
 * ({@code read_committed}), measured from their due time and from the moment the service was ready again (issue 29
 * item 4). With kills back to back, a retry due in one outage may be released only after a later one: what is bounded
 * is the time the service was ready while the retry was overdue (the outages between its due time and its visibility
 * left out), and its visibility after the last time the service became ready before it.
 */
final class RetryLateness {
    /** The provider gate's input of retries, as Kafka Streams names the repartition topic of the application. */
    static final String GATE_INPUT = "agent-outcomes-provider-retries-repartition";

    /** One outage: from the kill until {@code /health} answered 200 again. */
    record Outage(long killedAtMs, long readyAtMs) {
    }

    /** One retry due while the service was down, as it was seen on retry-ready, with its provider gate scope. */
    record Late(String resultId, long dueAtMs, long forwardedAtMs, long visibleAtMs, int outage, long fromDueMs,
                long fromReadyMs, long whileReadyMs, String scope) {
    }

    private RetryLateness() {
    }

    /**
     * Every tallied retry on retry-ready whose due time fell in an outage (its first record only: doubles are the
     * pipeline checks' business), with its lateness.
     */
    static List<Late> dueWhileDown(PipelineChecks checks, TopicWatcher watcher, Tally tally, List<Outage> outages) {
        List<Late> late = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (TopicWatcher.Seen record : watcher.records(PipelineChecks.RETRY_READY)) {
            RetryRequest retry = checks.decode(record, RetryRequest.class);
            if (!tally.retried.contains(retry.getResultId()) || !seen.add(retry.getResultId())) {
                continue;
            }
            long due = retry.getDueAt();
            int outage = outageOf(due, outages);
            if (outage < 0) {
                continue;
            }
            long visible = record.readAtMs();
            String scope = retry.getAgentResult() == null || retry.getAgentResult().getExecution() == null ? null
                    : retry.getAgentResult().getExecution().getProvider() + "/" + retry.getAgentResult().getExecution().getModel();
            late.add(new Late(retry.getResultId(), due, record.record().timestamp(), visible, outage + 1, visible - due,
                    visible - lastReadyBefore(visible, outages), whileReady(due, visible, outages), scope));
        }
        return late;
    }

    /**
     * The figures (per outage: how many fell due in it, the most late from due and from ready) and the check: every
     * retry due while down visible within {@code bound} of the service being ready, counted as time ready, but those
     * {@code heldByBudget} (its provider's retry budget spent when it left: held on purpose, not late), counted apart.
     */
    static Map<String, Object> check(List<Late> late, List<Outage> outages, Duration bound, Predicate<Late> heldByBudget,
                                     SoftAssertions softly) {
        Map<String, Object> figures = new TreeMap<>();
        List<Late> held = late.stream().filter(l -> l.whileReadyMs() > bound.toMillis() && heldByBudget.test(l)).toList();
        figures.put("retries due while down, later than the bound, released while their retry budget was spent", held.size());
        late = late.stream().filter(l -> !held.contains(l)).toList();
        figures.put("retries due while down", late.size());
        for (int k = 1; k <= outages.size(); k++) {
            int outage = k;
            List<Late> of = late.stream().filter(l -> l.outage() == outage).toList();
            figures.put(String.format("retries due while down %d: count, max s from due, max s from ready, max s overdue "
                            + "while ready", k), String.format("%d, %.1f, %.1f, %.1f", of.size(),
                    of.stream().mapToLong(Late::fromDueMs).max().orElse(0) / 1000.0,
                    of.stream().mapToLong(Late::fromReadyMs).max().orElse(0) / 1000.0,
                    of.stream().mapToLong(Late::whileReadyMs).max().orElse(0) / 1000.0));
        }
        figures.put("retries due while down: max ms visible after due",
                late.stream().mapToLong(Late::fromDueMs).max().orElse(0));
        figures.put("retries due while down: max ms visible after ready again",
                late.stream().mapToLong(Late::fromReadyMs).max().orElse(0));
        figures.put("retries due while down: max ms overdue while ready",
                late.stream().mapToLong(Late::whileReadyMs).max().orElse(0));
        List<Late> latest = late.stream().sorted(Comparator.comparingLong(Late::whileReadyMs).reversed()).limit(5).toList();
        figures.put("retries due while down: the 5 latest (id, outage, due, forwarded, visible)", latest.stream()
                .map(l -> String.format("%s %d %d +%d +%d", l.resultId(), l.outage(), l.dueAtMs(),
                        l.forwardedAtMs() - l.dueAtMs(), l.visibleAtMs() - l.dueAtMs())).toList());
        List<String> overBound = late.stream().filter(l -> l.whileReadyMs() > bound.toMillis())
                .map(l -> l.resultId() + " due in outage " + l.outage() + ", " + l.whileReadyMs() + " ms overdue while ready, "
                        + l.fromReadyMs() + " ms after ready").toList();
        softly.assertThat(overBound).as("retries due while the service was down, visible on retry-ready more than %d ms "
                + "after it was ready again", bound.toMillis()).isEmpty();
        return figures;
    }

    /**
     * When the scheduler forwarded each retry to the provider gate: the record time of its first record on the gate's
     * input topic (the scheduler stamps a retry with the wall clock as it forwards it), by result id.
     */
    static Map<String, Long> scheduledAt(PipelineChecks checks, TopicWatcher gateInput) {
        Map<String, Long> at = new HashMap<>();
        for (TopicWatcher.Seen seen : gateInput.records(GATE_INPUT)) {
            at.putIfAbsent(checks.decode(seen, RetryRequest.class).getResultId(), seen.record().timestamp());
        }
        return at;
    }

    /**
     * Which hop the retries due while down waited in: from due to the scheduler's forwarding (the scheduler and the
     * delay topics in front of it), and from there to visible on retry-ready (the gate's repartition hop); the 5
     * latest with both times.
     */
    static Map<String, Object> hops(List<Late> late, Map<String, Long> scheduledAt) {
        List<Late> gated = late.stream().filter(l -> scheduledAt.containsKey(l.resultId())).toList();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("retries due while down through the gate: count, max ms from due to the scheduler's forward, "
                + "max ms from the scheduler's forward to visible", gated.size() + ", "
                + gated.stream().mapToLong(l -> scheduledAt.get(l.resultId()) - l.dueAtMs()).max().orElse(0) + ", "
                + gated.stream().mapToLong(l -> l.visibleAtMs() - scheduledAt.get(l.resultId())).max().orElse(0));
        figures.put("retries due while down through the gate: the 5 latest (id, outage, due, scheduler forwarded, "
                + "gate forwarded, visible)", gated.stream()
                .sorted(Comparator.comparingLong(Late::fromDueMs).reversed()).limit(5)
                .map(l -> String.format("%s %d %d +%d +%d +%d", l.resultId(), l.outage(), l.dueAtMs(),
                        scheduledAt.get(l.resultId()) - l.dueAtMs(), l.forwardedAtMs() - l.dueAtMs(),
                        l.visibleAtMs() - l.dueAtMs())).toList());
        return figures;
    }

    /** The outage (index) the time falls in, or -1. */
    private static int outageOf(long at, List<Outage> outages) {
        for (int k = 0; k < outages.size(); k++) {
            if (at >= outages.get(k).killedAtMs() && at < outages.get(k).readyAtMs()) {
                return k;
            }
        }
        return -1;
    }

    /**
     * The moment the service was ready again that {@code at} counts from: the end of the outage it falls in (visible
     * before /health said so), else the end of the last outage before it.
     */
    private static long lastReadyBefore(long at, List<Outage> outages) {
        long ready = outages.get(0).readyAtMs();
        for (Outage outage : outages) {
            if (outage.killedAtMs() <= at) {
                ready = outage.readyAtMs();
            }
        }
        return ready;
    }

    /** The part of {@code [from, to]} the service was ready: the outages' overlap taken out. */
    private static long whileReady(long from, long to, List<Outage> outages) {
        long ready = Math.max(0, to - from);
        for (Outage outage : outages) {
            long start = Math.max(from, outage.killedAtMs());
            long end = Math.min(to, outage.readyAtMs());
            ready -= Math.max(0, end - start);
        }
        return ready;
    }
}

package io.agentoutcomes.app.fleet;

import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.client.PipelineTopics;
import io.agentoutcomes.client.RetryConsumer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * One fleet run against a running pipeline: the traffic at its rate, the orchestrator re-running what
 * {@code retry-ready} hands back, a progress line, and at the end, once the pipeline has settled, the report.
 * <ol>
 *   <li>until {@link FleetSettings#drain()} before the end: new tasks at the rate; re-runs throughout;</li>
 *   <li>at the end: re-runs stop (retries still handed back are counted, not re-run);</li>
 *   <li>settling: waits until every scheduled retry is on {@code retry-ready}, the orchestrator was handed each, and
 *       the counts have not moved for 3 s, at most {@link FleetSettings#settleTimeout()}.</li>
 * </ol>
 */
public final class FleetSession {
    private static final Duration STABLE_FOR = Duration.ofSeconds(3);

    private FleetSession() {
    }

    /** Runs the fleet, printing progress to {@code out}, and returns the report. */
    public static FleetReport run(FleetSettings settings, PrintWriter out) throws InterruptedException {
        Map<String, Object> client = settings.clientSettings();
        Object prefix = client.get(OutcomePublisher.TOPIC_PREFIX);
        PipelineTopics topics = new PipelineTopics(prefix == null ? "" : prefix.toString());
        String run = "f" + Long.toString(System.currentTimeMillis() / 1000, 36);
        try (TopicCounts counts = new TopicCounts(client, topics);
             OutcomePublisher publisher = OutcomePublisher.create(client)) {
            SentLedger sent = new SentLedger(publisher);
            TrafficGenerator traffic = new TrafficGenerator(publisher, sent, settings.seed(), run, settings.reportCosts());
            Orchestrator orchestrator = new Orchestrator(publisher, sent, settings.seed(), settings.rerunSuccess(),
                    settings.reportCosts());
            Map<String, Object> consumerSettings = new HashMap<>(client);
            // a group of its own that starts at the end: retries of earlier runs are not this fleet's to re-run
            consumerSettings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
            try (RetryConsumer retries = RetryConsumer.create(consumerSettings, "agent-outcomes-fleet-" + run, orchestrator,
                    RetryConsumer.Options.DEFAULT).start()) {
                if (!retries.awaitAssignment(Duration.ofSeconds(60))) {
                    throw new IllegalStateException("the retry consumer got no partitions of " + topics.retryReady()
                            + " within 60 s");
                }
                Progress progress = new Progress(out);
                long start = System.nanoTime();
                long newTasksUntil = start + settings.duration().minus(settings.drain()).toNanos();
                long end = start + settings.duration().toNanos();
                long drawn = 0;
                while (System.nanoTime() < end) {
                    long now = System.nanoTime();
                    if (now < newTasksUntil) {
                        long due = (long) ((now - start) / 1e9 * settings.ratePerSecond()) + 1;
                        for (; drawn < due; drawn++) {
                            traffic.next();
                        }
                    }
                    progress.maybePrint(now - start, sent, orchestrator, counts, now < newTasksUntil ? "running" : "draining");
                    Thread.sleep(20);
                }
                orchestrator.stopRerunning();
                sent.settle();
                boolean settled = settle(counts, orchestrator, settings.settleTimeout(), progress, start, sent);
                progress.done(System.nanoTime() - start, sent, orchestrator, counts, settled);
                return report(settings, sent, orchestrator, counts.snapshot(), settled);
            }
        }
    }

    private static boolean settle(TopicCounts counts, Orchestrator orchestrator, Duration timeout, Progress progress,
                                  long start, SentLedger sent) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        TopicCounts.Snapshot last = null;
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            TopicCounts.Snapshot now = counts.snapshot();
            if (last == null || !sameCounts(last, now)) {
                stableSince = System.nanoTime();
            }
            last = now;
            boolean allDelivered = now.retriesScheduled() == now.retriesDelivered()
                    && orchestrator.received() == now.retriesDelivered();
            if (allDelivered && counts.caughtUp() && System.nanoTime() - stableSince >= STABLE_FOR.toNanos()) {
                return true;
            }
            progress.maybePrint(System.nanoTime() - start, sent, orchestrator, counts, "settling");
            Thread.sleep(100);
        }
        return false;
    }

    private static boolean sameCounts(TopicCounts.Snapshot a, TopicCounts.Snapshot b) {
        return a.outcomeTotal() == b.outcomeTotal() && a.retriesScheduled() == b.retriesScheduled()
                && a.retriesDelivered() == b.retriesDelivered() && a.deadLetterTotal() == b.deadLetterTotal();
    }

    private static FleetReport report(FleetSettings settings, SentLedger sent, Orchestrator orchestrator,
                                      TopicCounts.Snapshot counts, boolean settled) {
        Map<String, Long> byTopic = sent.sentByTopic();
        Map.Entry<String, Long> busiest = counts.outcomesByJob().entrySet().stream()
                .max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElse(null);
        List<String> examples = counts.succeededAfterRetry().stream().sorted().limit(3).toList();
        return new FleetReport(settings.seed(), settings.duration().toSeconds(),
                byTopic.values().stream().mapToLong(Long::longValue).sum(), byTopic, sent.sentByKind(),
                sent.failures(), new TreeMap<>(counts.outcomes()), counts.retriesScheduled(),
                counts.retriesDelivered(), orchestrator.early(), counts.deliveredBeforeDue(), orchestrator.received(),
                orchestrator.reruns(), orchestrator.rerunSuccesses(), orchestrator.providerSwitches(),
                orchestrator.fallbackReruns(),
                counts.succeededAfterRetry().size(), examples, new TreeMap<>(counts.deadLetters()),
                new TreeMap<>(counts.deadLettersByCode()),
                counts.costByModel(), new TreeMap<>(counts.tokensByModel()), sent.sentCostByModel(),
                sent.sentTokensByModel(),
                busiest == null ? null : busiest.getKey(), busiest == null ? 0 : busiest.getValue(), settled);
    }

    /** The progress line: on a terminal rewritten in place every second, otherwise a line every 5 s. */
    private static final class Progress {
        private final PrintWriter out;
        private final boolean terminal = System.console() != null;
        private long lastPrint = -1;

        Progress(PrintWriter out) {
            this.out = out;
        }

        void maybePrint(long elapsedNanos, SentLedger sent, Orchestrator orchestrator, TopicCounts counts,
                        String phase) {
            long second = elapsedNanos / 1_000_000_000L;
            long every = terminal ? 1 : 5;
            if (lastPrint >= 0 && second < lastPrint + every) {
                return;
            }
            lastPrint = second;
            out.print((terminal ? "\r" : "") + line(second, sent, orchestrator, counts, phase) + (terminal ? "" : "\n"));
            out.flush();
        }

        void done(long elapsedNanos, SentLedger sent, Orchestrator orchestrator, TopicCounts counts, boolean settled) {
            out.println((terminal ? "\r" : "") + line(elapsedNanos / 1_000_000_000L, sent, orchestrator, counts,
                    settled ? "settled" : "NOT settled"));
            out.flush();
        }

        private static String line(long second, SentLedger sent, Orchestrator orchestrator, TopicCounts counts,
                                   String phase) {
            TopicCounts.Snapshot now = counts.snapshot();
            long published = sent.sentByTopic().values().stream().mapToLong(Long::longValue).sum();
            return String.format(Locale.ROOT, "[%3ds %-9s] records in %,7d | outcomes %,7d | retries pending %,5d, delivered %,6d (early %d) | dead letters %,5d",
                    second, phase, published, now.outcomeTotal(), now.retriesScheduled() - now.retriesDelivered(),
                    now.retriesDelivered(), orchestrator.early(), now.deadLetterTotal());
        }
    }
}

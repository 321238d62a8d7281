package io.agentoutcomes.app.fleet;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a fleet run did and what the pipeline made of it. Every pipeline figure is a count of a topic read
 * {@code read_committed} from where it stood when the run began ({@link TopicCounts}); {@code retriesEarly} is counted
 * by the orchestrator (retries it was handed before their due time).
 *
 * @param published              records the fleet published (first attempts and re-runs)
 * @param publishedByTopic       the same by topic
 * @param publishedByKind        first attempts by kind of traffic
 * @param publishFailures        records the producer could not deliver
 * @param outcomes               result type to the number of records on {@code outcomes-classified}
 * @param retriesScheduled       records on the {@code retry-delay-<tier>} topics
 * @param retriesDelivered       records on {@code retry-ready}
 * @param retriesEarly           retries the orchestrator was handed before their due time
 * @param retriesDeliveredBeforeDue records on {@code retry-ready} whose timestamp is before their due time
 * @param retriesReceived        retries the orchestrator was handed
 * @param reruns                 re-runs the orchestrator published, and how many of them succeeded
 * @param fallbackReruns         re-runs on the fallback model a retry carried (a declared chain, issue 33)
 * @param succeededAfterRetry    tasks with a success on {@code outcomes-classified} at attempt 1 or later
 * @param deadLetters            stop reason to the number of records on {@code dead-letter}
 * @param deadLettersByCode      error code to the number of records on {@code dead-letter}
 * @param costByModel            model to the exact sum of the reported cost of its completions, USD ({@code unknown}:
 *                               results that name no model), as {@code /analytics} and {@code /metrics} count it
 * @param tokensByModel          model to its completions' tokens, each counted once (uncached input, cache reads and
 *                               writes, output; the total of results that report only one), as {@code /analytics}
 *                               and {@code /metrics} count them
 * @param sentCostByModel        model to the cost of the agent results the fleet published, by its own tally
 * @param sentTokensByModel      model to the tokens of the agent results the fleet published, by its own tally
 * @param busiestJob             the job with the most node outcomes, or null
 * @param settled                whether every scheduled retry was delivered before the report
 */
public record FleetReport(long seed, long durationSeconds, long published, Map<String, Long> publishedByTopic,
                          Map<String, Long> publishedByKind, long publishFailures, Map<String, Long> outcomes,
                          long retriesScheduled, long retriesDelivered, long retriesEarly, long retriesDeliveredBeforeDue,
                          long retriesReceived, long reruns, long rerunSuccesses, long providerSwitches,
                          long fallbackReruns,
                          long succeededAfterRetry, List<String> succeededAfterRetryExamples,
                          Map<String, Long> deadLetters, Map<String, Long> deadLettersByCode,
                          Map<String, BigDecimal> costByModel,
                          Map<String, Long> tokensByModel, Map<String, BigDecimal> sentCostByModel,
                          Map<String, Long> sentTokensByModel, String busiestJob, long busiestJobOutcomes,
                          boolean settled) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    /** Writes the report as JSON, with {@code extra} entries (URLs, the busiest job's state) after its own. */
    public void writeJson(Path file, Map<String, Object> extra) throws IOException {
        var node = JSON.valueToTree(this);
        ((ObjectNode) node).setAll(
                (ObjectNode) JSON.valueToTree(extra));
        Files.writeString(file, JSON.writeValueAsString(node));
    }

    /** The report for people. */
    public void print(PrintWriter out) {
        out.printf(Locale.ROOT, "%nFleet report (seed %d, %d s)%n", seed, durationSeconds);
        out.println("  the fleet's own span: each topic counted from where it stood when this run began (earlier runs on");
        out.println("  the same broker are not in it; /analytics, /metrics and the dashboard count everything)");
        out.printf(Locale.ROOT, "  published            %,d records: %s%n", published, publishedByTopic);
        if (publishFailures > 0) {
            out.printf(Locale.ROOT, "  NOT delivered        %,d records%n", publishFailures);
        }
        long total = outcomes.values().stream().mapToLong(Long::longValue).sum();
        out.printf(Locale.ROOT, "  completions          %,d on outcomes-classified%n", total);
        outcomes.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.printf(Locale.ROOT, "    %-22s %,8d%n", e.getKey(), e.getValue()));
        out.printf(Locale.ROOT, "  retries              %,d scheduled, %,d delivered on retry-ready, %,d early%s%n",
                retriesScheduled, retriesDelivered, retriesEarly, settled ? "" : " (NOT settled: some still pending)");
        out.printf(Locale.ROOT, "  re-runs              %,d published, %,d succeeded, %,d on another provider, %,d on a "
                + "fallback model%n", reruns, rerunSuccesses, providerSwitches, fallbackReruns);
        out.printf(Locale.ROOT, "  succeeded after retry %,d tasks%s%n", succeededAfterRetry,
                succeededAfterRetryExamples.isEmpty() ? "" : ", e.g. " + String.join(", ", succeededAfterRetryExamples));
        long dead = deadLetters.values().stream().mapToLong(Long::longValue).sum();
        out.printf(Locale.ROOT, "  dead letters         %,d%s%n", dead, dead == 0 ? "" : " by stop reason " + deadLetters
                + ", by code " + deadLettersByCode);
        out.println("  cost and tokens by model (unknown: results that name no model)");
        costByModel.keySet().stream().sorted().forEach(model -> out.printf(Locale.ROOT, "    %-22s %12s %,14d tokens%n",
                model, dollars(costByModel.get(model)), tokensByModel.getOrDefault(model, 0L)));
        BigDecimal cost = costByModel.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        out.printf(Locale.ROOT, "    %-22s %12s %,14d tokens%n", "all models", dollars(cost),
                tokensByModel.values().stream().mapToLong(Long::longValue).sum());
        if (busiestJob != null) {
            out.printf(Locale.ROOT, "  busiest job          %s (%d node outcomes)%n", busiestJob, busiestJobOutcomes);
        }
        out.flush();
    }

    static String dollars(BigDecimal usd) {
        return "$" + String.format(Locale.ROOT, "%,.4f", usd.setScale(4, RoundingMode.HALF_UP));
    }
}

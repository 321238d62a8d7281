package io.agentoutcomes.app.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.app.cli.ConfigOptions;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.json.AvroJson;
import io.agentoutcomes.app.logging.Logging;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetPeriods;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.budget.BudgetStatusGuard;
import io.agentoutcomes.topology.classify.AttemptCount;
import io.agentoutcomes.topology.classify.BudgetGuard;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.ingest.AgentResultNormalizer;
import io.agentoutcomes.topology.ingest.InputBounds;
import io.agentoutcomes.topology.ingest.InvalidInputException;
import io.agentoutcomes.topology.ingest.NodeFinishedNormalizer;
import io.agentoutcomes.topology.ingest.RecordContext;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.apache.kafka.common.header.internals.RecordHeaders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code agent-outcomes explain}: one JSON envelope in, and out, as JSON, its canonical record, classification,
 * decision with explanation, and retry delay: computed by the code the pipeline runs, with the same settings.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Explain what the pipeline does with one JSON envelope (any dialect, or a node_finished event): "
                + "the canonical record, its classification, the decision and the retry delay.")
public final class ExplainCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "The envelope; standard input when absent or '-'.")
    Path file;

    @Option(names = "--header", paramLabel = "NAME=VALUE", description = "A record header, e.g. agent-id=a1. Repeatable.")
    Map<String, String> headers = new LinkedHashMap<>();

    @Option(names = "--key", paramLabel = "KEY", description = "The record key (the task id, or the job id for node_finished).")
    String key;

    @Option(names = "--node-finished", description = "Read the envelope as a workflow node's node_finished event.")
    boolean nodeFinished;

    @Option(names = "--failures-before", paramLabel = "N",
            description = "Consecutive failures of the task before this one (default: 0, a first failure).")
    int failuresBefore;

    @Option(names = "--budget-exhausted", paramLabel = "NAME[=VALUE]",
            description = "Explain as if the declared budget NAME were exhausted in the result's period (for VALUE of its "
                    + "dimension only, if given): a retry it stops (stop-retries=true) is shown stopped. Repeatable.")
    List<String> exhaustedBudgets = new ArrayList<>();

    @Mixin
    ConfigOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The provider gate a retry would pass, as {@code run} has it. */
    ProviderGateSettings gate = ProviderGateSettings.defaults();

    @Override
    public Integer call() throws IOException {
        AppConfig config = options.load(System.getenv());
        Logging.configure(config.logFormat(), config.secretValues());
        byte[] envelope = read();
        gate = config.pipeline().providers();
        RecordHeaders recordHeaders = new RecordHeaders();
        headers.forEach((name, value) -> recordHeaders.add(name, value.getBytes(StandardCharsets.UTF_8)));
        Instant now = Instant.ofEpochMilli(System.currentTimeMillis());
        String topic = config.topicPrefix() + (nodeFinished ? TopicNames.NODE_FINISHED_JSON : TopicNames.AGENT_RESULTS_JSON);
        RecordContext context = new RecordContext(key, recordHeaders, topic, 0, 0, now);
        PrintWriter out = spec.commandLine().getOut();
        try {
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(
                    explain(envelope, context, config.pipeline().retry(), now, exhausted(config.pipeline().budgets(), now))));
            out.flush();
            return 0;
        } catch (InvalidInputException e) {
            ObjectNode rejected = JSON.createObjectNode();
            rejected.putObject("rejected").put("reason", e.kind().label()).put("message", e.getMessage());
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(rejected));
            out.flush();
            return 3;
        }
    }

    /** The explanation of one envelope. */
    JsonNode explain(byte[] envelope, RecordContext context, RetryPolicy policy, Instant now, BudgetGuard budgets) {
        TaskAttempts before = TaskAttempts.newBuilder().setAttempts(failuresBefore)
                .setConsecutiveFailures(failuresBefore).setTotalFailures(failuresBefore).build();
        ObjectNode explanation = JSON.createObjectNode();
        ClassifiedOutcome outcome;
        AttemptCount count;
        if (nodeFinished) {
            NodeFinished event = NodeFinishedNormalizer.normalize(envelope, context);
            InputBounds.check(event);
            explanation.set("canonical", AvroJson.toJson(event));
            outcome = Classification.classify(event, before, policy, now, new Random());
            count = AttemptCount.of(before, event.getAttempt(), null);
        } else {
            AgentResult result = AgentResultNormalizer.normalize(envelope, context);
            InputBounds.check(result);
            explanation.set("canonical", AvroJson.toJson(result));
            outcome = Classification.classify(result, before, policy, now, new Random(), budgets, now.toEpochMilli());
            count = AttemptCount.of(before, result.getAttempt(),
                    result.getExecution() == null ? null : result.getExecution().getRetryCount());
        }
        explanation.putObject("classification")
                .put("taskId", outcome.getTaskId())
                .put("attempt", outcome.getAttempt())
                .put("attemptFrom", count.source())
                .put("resultType", outcome.getResultType().name())
                .put("errorCode", outcome.getErrorCode())
                .put("errorCategory", outcome.getErrorCategory() == null ? null : outcome.getErrorCategory().name())
                .put("reason", outcome.getReason());
        explanation.set("decision", AvroJson.toJson(outcome.getDecision()));
        // The confidence rule that decided a success, when one applied.
        explanation.set("confidence", AvroJson.toJson(outcome.getConfidenceCheck()));
        if (outcome.getRetryDelayMs() != null) {
            long delay = outcome.getRetryDelayMs();
            explanation.putObject("retry")
                    .put("delayMs", delay)
                    .put("why", outcome.getRetryDelayReason())
                    .put("tier", policy.tiers().tierFor(Duration.ofMillis(delay)).name())
                    .put("nextAttempt", outcome.getAttempt() + 1);
        } else {
            explanation.putNull("retry");
        }
        explanation.set("gate", GateExplanation.of(outcome, gate));
        explanation.set("fallback", FallbackExplanation.of(outcome, policy));
        if (outcome.getRetryCount() != null) {
            explanation.put("retryCount", outcome.getRetryCount());
        }
        return explanation;
    }

    /**
     * The budgets {@code --budget-exhausted} names, as exhausted in every period: the guard the pipeline would have,
     * with their status given (spend at the limit) instead of read from {@code budget-status}.
     */
    private BudgetGuard exhausted(BudgetSettings budgets, Instant now) {
        Map<String, String> named = new LinkedHashMap<>();
        for (String given : exhaustedBudgets) {
            int at = given.indexOf('=');
            String name = at < 0 ? given : given.substring(0, at);
            if (budgets.budget(name) == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--budget-exhausted " + given
                        + ": no budget " + name + " is declared (budget." + name + ".*)");
            }
            named.put(name, at < 0 ? null : given.substring(at + 1));
        }
        return new BudgetStatusGuard(budgets, key -> {
            Budget budget = budgets.budget(Budget.nameOf(key));
            String value = Budget.valueOf(key);
            if (!named.containsKey(budget.name()) || named.get(budget.name()) != null && !named.get(budget.name()).equals(value)) {
                return null;
            }
            long start = BudgetPeriods.start(budget.period(), now.toEpochMilli());
            ByteBuffer limit = Money.toBytes(budget.limitUsd());
            return new BudgetStatus(budget.name(), budget.dimension().label(), value, budget.period(), start,
                    BudgetPeriods.end(budget.period(), start), limit, limit.duplicate(), "explain", start);
        });
    }

    private byte[] read() throws IOException {
        if (file == null || file.toString().equals("-")) {
            try (InputStream in = System.in) {
                return in.readAllBytes();
            }
        }
        return Files.readAllBytes(file);
    }
}

package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus alert rules of docker/prometheus/alerts.yml, checked by Prometheus' own rule engine: {@code promtool}
 * (Debian's package {@code prometheus}, which ./test.sh installs) checks their syntax and runs their unit tests
 * (alerts.test.yml, which feeds series and says which alerts fire when). Without promtool on the PATH (or the system
 * property {@code promtool}) those tests are skipped, saying so, unless {@code -Dpromtool.required=true} (./test.sh sets
 * it, so CI never skips them). The rules' metrics are found on a running service's /metrics by MetricsEndpointTest.
 */
class AlertRulesTest {
    private static final Path PROMETHEUS = DockerFiles.DOCKER.resolve("prometheus");
    private static final Set<String> SEVERITIES = Set.of("critical", "warning");
    /** Where the runbooks are read: absolute, an alert being read far from the repository (a placeholder base). */
    static final String RUNBOOK_BASE = "https://github.com/agent-outcomes/agent-outcomes/blob/main/";

    private final JsonNode rules = DockerFiles.yaml("prometheus/alerts.yml");

    @Test
    void promtoolFindsEveryRuleValid() throws Exception {
        Result result = promtool(PROMETHEUS, "check", "rules", "alerts.yml");

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void promtoolUnitTestsSayWhichAlertsFireWhen() throws Exception {
        Result result = promtool(PROMETHEUS, "test", "rules", "alerts.test.yml");

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    void theUnitTestsFailWhenARuleChanges(@TempDir Path dir) throws Exception {
        // the dead-letter threshold raised from 1 to 3 a second: the test feeding 2 a second must now fail
        String changed = Files.readString(PROMETHEUS.resolve("alerts.yml"))
                .replace("sum(rate(agent_outcomes_dead_letters_total[5m])) > 1", "sum(rate(agent_outcomes_dead_letters_total[5m])) > 3");
        assertThat(changed).isNotEqualTo(Files.readString(PROMETHEUS.resolve("alerts.yml")));
        Files.writeString(dir.resolve("alerts.yml"), changed);
        Files.copy(PROMETHEUS.resolve("alerts.test.yml"), dir.resolve("alerts.test.yml"));

        Result result = promtool(dir, "test", "rules", "alerts.test.yml");

        assertThat(result.exit()).as(result.output()).isNotZero();
        assertThat(result.output()).contains("FAILED").contains("alertname: DeadLetterRateHigh, time: 13m");
    }

    @Test
    void prometheusLoadsTheRulesComposeMountsBesideItsConfiguration() throws Exception {
        JsonNode config = DockerFiles.yaml("prometheus/prometheus.yml");
        List<String> mounts = new ArrayList<>();
        DockerFiles.yaml("compose.yaml").get("services").get("prometheus").get("volumes")
                .forEach(volume -> mounts.add(volume.asText()));

        assertThat(config.get("rule_files")).hasSize(1);
        assertThat(config.get("rule_files").get(0).asText()).isEqualTo("alerts.yml");
        // a relative rule file is read from the configuration's directory, /etc/prometheus in the container
        assertThat(mounts).contains("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro",
                "./prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro");
        Result result = promtool(PROMETHEUS, "check", "config", "prometheus.yml");
        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: 1 rule files found")
                .contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void everyAlertHasASeverityASummaryAndAnAbsoluteLinkToItsRunbookInTheOperationsPage() throws Exception {
        Set<String> anchors = headingAnchors(Files.readString(Path.of("..", "docs", "operations.md")));

        assertThat(alerts()).hasSize(13);
        for (JsonNode alert : alerts()) {
            String name = alert.get("alert").asText();
            assertThat(alert.path("labels").path("severity").asText()).as("severity of %s", name).isIn(SEVERITIES);
            assertThat(alert.path("labels").path("service").asText()).as("service of %s", name).isEqualTo("agent-outcomes");
            assertThat(alert.path("annotations").path("summary").asText()).as("summary of %s", name).isNotBlank();
            assertThat(alert.path("annotations").path("description").asText()).as("description of %s", name).isNotBlank();
            assertThat(alert.path("annotations").path("runbook_url").asText()).as("runbook of %s", name)
                    .isEqualTo(RUNBOOK_BASE + "docs/operations.md#" + name.toLowerCase(Locale.ROOT));
            assertThat(anchors).as("a section of docs/operations.md for %s", name).contains(name.toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void everyAlertIsShownFiringAndNotFiringByTheUnitTests() {
        Set<String> firing = new HashSet<>();
        Set<String> silent = new HashSet<>();
        DockerFiles.yaml("prometheus/alerts.test.yml").get("tests").forEach(test -> test.path("alert_rule_test").forEach(eval -> {
            (eval.path("exp_alerts").isEmpty() ? silent : firing).add(eval.get("alertname").asText());
        }));
        List<String> names = alerts().stream().map(alert -> alert.get("alert").asText()).toList();

        assertThat(firing).containsExactlyInAnyOrderElementsOf(names);
        assertThat(silent).containsExactlyInAnyOrderElementsOf(names);
    }

    /** Every rule of alerts.yml, in order. */
    private List<JsonNode> alerts() {
        List<JsonNode> alerts = new ArrayList<>();
        rules.get("groups").forEach(group -> group.get("rules").forEach(alerts::add));
        return alerts;
    }

    /** The anchors GitHub gives a Markdown page's headings: lower case, punctuation dropped, spaces as '-'. */
    static Set<String> headingAnchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        Matcher heading = Pattern.compile("(?m)^#{1,6} +(.+?) *$").matcher(markdown);
        while (heading.find()) {
            anchors.add(heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
        }
        return anchors;
    }

    record Result(int exit, String output) {
    }

    /** Runs promtool in {@code dir}: its exit status and its standard output and error together. */
    static Result promtool(Path dir, String... arguments) throws IOException, InterruptedException {
        Optional<Path> promtool = promtool();
        if (promtool.isEmpty()) {
            String message = "promtool not found on the PATH (Debian's package prometheus has it: apt-get install prometheus,"
                    + " as ./test.sh does; or -Dpromtool=/path/to/promtool): the alert rules are not checked";
            assertThat(Boolean.getBoolean("promtool.required")).as(message + ", and -Dpromtool.required=true").isFalse();
            Assumptions.abort(message);
        }
        List<String> command = new ArrayList<>(List.of(promtool.get().toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool %s ended", command).isTrue();
        return new Result(process.exitValue(), output);
    }

    private static Optional<Path> promtool() {
        String configured = System.getProperty("promtool");
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, "promtool"))
                .filter(Files::isExecutable)
                .findFirst();
    }
}

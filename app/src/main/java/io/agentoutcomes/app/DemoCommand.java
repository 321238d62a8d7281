package io.agentoutcomes.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.cli.ConfigOptions;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.RetryPolicyConfig;
import io.agentoutcomes.app.fleet.FleetReport;
import io.agentoutcomes.app.fleet.FleetSession;
import io.agentoutcomes.app.fleet.FleetSettings;
import io.agentoutcomes.client.OutcomePublisher;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code agent-outcomes demo}: the service on its embedded default (as {@code run}) and a {@code fleet} against it,
 * in one process; a progress line, the report, then the service stays up for the dashboard until Ctrl-C.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the service (embedded Kafka and registry unless configured otherwise) with a simulated fleet "
                + "and orchestrator for --duration, print what happened, and keep the service up for the dashboard "
                + "until Ctrl-C.")
final class DemoCommand implements Callable<Integer> {
    /** The backoff cap of the demo unless set: whole retry chains fit in a minute (run's default is 30 s). */
    static final String DEMO_BACKOFF_CAP_MS = "8000";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    ConfigOptions options;

    @Mixin
    FleetOptions fleet;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60s",
            description = "How long the fleet runs, e.g. 30s, 2m (default: ${DEFAULT-VALUE}).")
    String duration;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        boolean capSet = options.properties().containsKey(RetryPolicyConfig.BACKOFF_CAP_MS);
        options.properties().putIfAbsent(RetryPolicyConfig.BACKOFF_CAP_MS, DEMO_BACKOFF_CAP_MS);
        AppConfig config = options.load(System.getenv());
        PrintWriter out = spec.commandLine().getOut();
        ServiceProcess process = ServiceProcess.start(config);
        AgentOutcomesService service = process.service();
        out.println("agent-outcomes demo: the service is starting");
        out.println("  Kafka bootstrap servers : " + service.bootstrapServers() + (config.embeddedKafka() ? " (embedded)" : ""));
        out.println("  Schema registry         : " + service.schemaRegistryUrl() + (config.embeddedRegistry() ? " (embedded)" : ""));
        out.println("  Dashboard               : " + service.httpUrl() + "/");
        ServiceProcess.kafkaLogFile(config).ifPresent(file ->
                out.println("  Kafka's log lines       : " + file.toAbsolutePath()));
        if (!capSet) {
            out.println("  Backoff capped at " + DEMO_BACKOFF_CAP_MS + " ms for the demo (run's default: 30000; "
                    + "-p backoff.cap.ms=... to change)");
        }
        out.flush();
        awaitRunning(service, Duration.ofSeconds(120));
        FleetSettings settings = fleet.settings(clientSettings(service, config.topicPrefix()),
                FleetSettings.parseDuration(duration));
        out.printf("fleet: %s new tasks for %d s (none in the last %d s), seed %d%n", fleet.rate,
                settings.duration().toSeconds(), settings.drain().toSeconds(), settings.seed());
        out.flush();
        FleetReport report = FleetSession.run(settings, out);
        Map<String, Object> extra = describe(report, service, out);
        if (fleet.reportJson != null) {
            report.writeJson(fleet.reportJson, extra);
            out.println("Report written to " + fleet.reportJson.toAbsolutePath());
        }
        out.println("The service keeps running for the dashboard: " + service.httpUrl() + "/ . Ctrl-C stops it.");
        out.flush();
        return process.awaitStop(spec.commandLine().getErr());
    }

    /** The client settings of a fleet against this service. */
    static Map<String, Object> clientSettings(AgentOutcomesService service, String topicPrefix) {
        Map<String, Object> client = new HashMap<>(service.clientConfig());
        client.putAll(service.registryClientSettings());
        client.put(OutcomePublisher.TOPIC_PREFIX, topicPrefix);
        return client;
    }

    static void awaitRunning(AgentOutcomesService service, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (service.streamsState() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka Streams is " + service.streamsState() + " after " + timeout);
            }
            Thread.sleep(100);
        }
    }

    /** Prints the report with the busiest job's replay state and the URLs; returns those for the JSON report. */
    static Map<String, Object> describe(FleetReport report, AgentOutcomesService service, PrintWriter out) {
        report.print(out);
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("dashboardUrl", service.httpUrl() + "/");
        if (report.busiestJob() != null) {
            String timeline = service.httpUrl() + "/ui/jobs/" + URLEncoder.encode(report.busiestJob(), StandardCharsets.UTF_8);
            JsonNode state = jobState(service, "/jobs/" + URLEncoder.encode(report.busiestJob(), StandardCharsets.UTF_8));
            if (state != null) {
                out.printf("    replay state: %s, cursor at %s, %d of %d nodes completed%n", state.path("status").asText(),
                        state.path("cursorNode").asText("(none)"), state.path("completedNodeIds").size(),
                        state.path("nodes").size());
                extra.put("busiestJobState", state);
            }
            out.println("    timeline: " + timeline);
            extra.put("timelineUrl", timeline);
        }
        out.println("  dashboard            " + service.httpUrl() + "/");
        out.flush();
        return extra;
    }

    /** A job's replay state from the service's HTTP API, with its credentials; null when it does not answer 200. */
    private static JsonNode jobState(AgentOutcomesService service, String path) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).timeout(Duration.ofSeconds(10));
            service.httpSecurity().clientAuthorization().ifPresent(value -> request.header("Authorization", value));
            HttpResponse<String> response = service.httpSecurity().client(Duration.ofSeconds(10)).send(request.build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }
}

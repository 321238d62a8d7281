package io.agentoutcomes.app;

import io.agentoutcomes.app.fleet.FleetReport;
import io.agentoutcomes.app.fleet.FleetSession;
import io.agentoutcomes.app.fleet.FleetSettings;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.OutcomePublisher;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code agent-outcomes fleet}: traffic of a simulated agent fleet and its orchestrator, against a running pipeline. */
@Command(name = "fleet", mixinStandardHelpOptions = true,
        description = "Publish what a fleet of agents and workflow runners publishes (every input dialect as JSON, "
                + "canonical Avro, successes, every kind of error, jobs, loop events) to a running pipeline, re-run "
                + "what retry-ready hands back, and report what the pipeline made of it.")
final class FleetCommand implements Callable<Integer> {
    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]", defaultValue = "localhost:9092",
            description = "Kafka of the running pipeline (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", paramLabel = "URL", defaultValue = "http://localhost:8081",
            description = "Its schema registry (default: ${DEFAULT-VALUE}).")
    String schemaRegistryUrl;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "",
            description = "The pipeline's topic prefix (default: none).")
    String topicPrefix;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60s",
            description = "How long to run, e.g. 30s, 5m (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--config", paramLabel = "FILE",
            description = "A properties file of Kafka client and registry settings (security.protocol, sasl.jaas.config, "
                    + "basic.auth.user.info, schema.registry.ssl.truststore.location, ...), so secrets stay off the "
                    + "command line; -p overrides it.")
    Path configFile;

    @Option(names = {"-p", "--property"}, paramLabel = "KEY=VALUE",
            description = "A Kafka client or registry setting, e.g. security.protocol=SASL_SSL. Repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Mixin
    FleetOptions fleet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> client = clientSettings();
        FleetSettings settings = fleet.settings(client, FleetSettings.parseDuration(duration));
        PrintWriter out = spec.commandLine().getOut();
        out.printf("fleet: %s new tasks for %d s (none in the last %d s), seed %d, against %s%n", fleet.rate,
                settings.duration().toSeconds(), settings.drain().toSeconds(), settings.seed(), bootstrapServers);
        out.flush();
        FleetReport report = FleetSession.run(settings, out);
        report.print(out);
        if (fleet.reportJson != null) {
            report.writeJson(fleet.reportJson, Map.of());
            out.println("Report written to " + fleet.reportJson.toAbsolutePath());
        }
        return report.settled() && report.publishFailures() == 0 ? 0 : 1;
    }

    /** The client settings: the {@code --config} file's, then {@code -p}'s over them, then the named flags. */
    Map<String, Object> clientSettings() throws IOException {
        Map<String, Object> client = new HashMap<>();
        if (configFile != null) {
            Properties file = new Properties();
            try (Reader reader = Files.newBufferedReader(configFile)) {
                file.load(reader);
            }
            file.stringPropertyNames().forEach(name -> client.put(name, file.getProperty(name).trim()));
        }
        client.putAll(properties);
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        client.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL, schemaRegistryUrl);
        client.put(OutcomePublisher.TOPIC_PREFIX, topicPrefix);
        return client;
    }
}

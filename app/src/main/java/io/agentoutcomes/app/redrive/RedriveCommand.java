package io.agentoutcomes.app.redrive;

import io.agentoutcomes.app.cli.ConfigOptions;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.topic.Topics;
import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code agent-outcomes redrive}: dead letters sent back to {@code retry-ready} after a fix, each once ({@link Redrive}). */
@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = "Re-issue the dead letters the filters select to retry-ready, each once, with a fresh attempt "
                + "budget, recording each on the redrives topic. --dry-run counts them and writes nothing. Settings as "
                + "for run (--config, -p, --bootstrap-servers, ...); without bootstrap servers it uses the embedded "
                + "broker and registry a local 'run' starts.")
public final class RedriveCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Option(names = "--error-code", paramLabel = "CODE", description = "Only dead letters of this error code, e.g. llm-timeout.")
    String errorCode;

    @Option(names = "--agent", paramLabel = "AGENT_ID", description = "Only this agent's.")
    String agent;

    @Option(names = "--provider", paramLabel = "PROVIDER", description = "Only those whose failed attempt used this provider.")
    String provider;

    @Option(names = "--stop-reason", paramLabel = "REASON", completionCandidates = DeadLetterStopReasons.class,
            description = "Only this stop reason (any case): ${COMPLETION-CANDIDATES}.")
    String stopReason;

    @Option(names = "--from", paramLabel = "INSTANT", description = "Only those stopped at or after this ISO-8601 instant, e.g. 2026-03-01T00:00:00Z.")
    String from;

    @Option(names = "--to", paramLabel = "INSTANT", description = "Only those stopped before this ISO-8601 instant.")
    String to;

    @Option(names = "--dry-run", description = "Count what would be redriven, show a few, write nothing.")
    boolean dryRun;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "" + Redrive.DEFAULT_LIMIT,
            description = "Dead letters one redrive handles at most, up to " + Redrive.MAX_LIMIT + " (default: ${DEFAULT-VALUE}); run again for the rest.")
    int limit;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The stop reasons a dead letter carries, as {@code --help} lists them. */
    static final class DeadLetterStopReasons implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return RedriveFilter.DEAD_LETTER_STOP_REASONS.stream().map(reason -> reason.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    @Override
    public Integer call() {
        RedriveFilter filter = RedriveFilter.parse(errorCode, agent, provider, stopReason, from, to);
        AppConfig config = options.load(System.getenv());
        RedriveReport report = of(config).run(filter, dryRun, limit, System.getProperty("user.name", "unknown") + " (command line)");
        report.print(spec.commandLine().getOut());
        return 0;
    }

    /** A redrive against the Kafka and registry of {@code config}: those a local {@code run} embeds when none are set. */
    static Redrive of(AppConfig config) {
        Map<String, Object> client = new HashMap<>(config.kafka());
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                config.bootstrapServers().orElse("localhost:" + config.embeddedKafkaPort()));
        Map<String, Object> serde = new HashMap<>(client);
        if (config.embeddedRegistry()) {
            serde.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL, config.httpSecurity().scheme() + "://localhost:"
                    + config.embeddedRegistryPort());
            serde.putAll(config.httpSecurity().registryClientSettings());
        } else {
            serde.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL, config.schemaRegistryUrl().orElseThrow());
        }
        Topics topics = new Topics(config.topicPrefix(), serde, config.pipeline().retry().tiers().names());
        return new Redrive(client, topics, config.applicationId(), Clock.systemUTC());
    }
}

package io.agentoutcomes.app;

import io.agentoutcomes.app.fleet.FleetSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/** The traffic flags of {@code fleet} and {@code demo}. */
final class FleetOptions {
    @Option(names = "--rate", paramLabel = "N/s", defaultValue = "20/s",
            description = "New tasks (or jobs, or loop steps) per second; re-runs come on top (default: ${DEFAULT-VALUE}).")
    String rate;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "Seed of the traffic and of each re-run's fate: the same seed, the same tasks (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--rerun-success", paramLabel = "P", defaultValue = "0.5",
            description = "Probability that a re-run succeeds (default: ${DEFAULT-VALUE}).")
    double rerunSuccess;

    @Option(names = "--settle-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "After the run, the longest wait for the pipeline to hand back every scheduled retry (default: ${DEFAULT-VALUE}).")
    String settleTimeout;

    @Option(names = "--without-costs", description = "Results carry tokens but no cost: the pipeline prices them from its "
            + "price table (docs/analytics.md, \"Prices\").")
    boolean withoutCosts;

    @Option(names = "--report-json", paramLabel = "FILE", description = "Also write the report as JSON to FILE.")
    Path reportJson;

    FleetSettings settings(Map<String, Object> clientSettings, Duration duration) {
        return new FleetSettings(clientSettings, FleetSettings.parseRate(rate), duration, seed, rerunSuccess,
                FleetSettings.parseDuration(settleTimeout), !withoutCosts);
    }
}

package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.client.testing.TestBroker;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The settings of a service on the test broker: the embedded registry, ephemeral HTTP and registry ports. */
public final class TestServiceConfig {
    private TestServiceConfig() {
    }

    /**
     * The settings of a service on {@code kafka} with {@code partitions} partitions, its data under {@code dataDir},
     * and {@code extra} name/value pairs on top.
     */
    public static AppConfig on(TestBroker kafka, Path dataDir, int partitions, String... extra) {
        Map<String, String> settings = new HashMap<>();
        for (int i = 0; i < extra.length; i += 2) {
            settings.put(extra[i], extra[i + 1]);
        }
        return on(kafka, dataDir, partitions, settings);
    }

    /** As {@link #on(TestBroker, Path, int, String...)}, the further settings as a map (they override the others). */
    public static AppConfig on(TestBroker kafka, Path dataDir, int partitions, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(Map.of(
                ConfigLoader.BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                ConfigLoader.TOPIC_PARTITIONS, String.valueOf(partitions),
                ConfigLoader.DATA_DIR, dataDir.toString(),
                ConfigLoader.HTTP_PORT, "0",
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0"));
        settings.putAll(extra);
        return ConfigLoader.load(Optional.empty(), Map.of(), settings);
    }
}

package io.agentoutcomes.bench;

import java.io.IOException;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options every suite takes: where the broker and registry are, and the quick mode. */
final class CommonOptions {
    @Option(names = "--bootstrap-servers", description = "A running Kafka (default: a broker in this JVM).")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", description = "A running schema registry (default: the embedded one, in this JVM).")
    String schemaRegistryUrl;

    @Option(names = "--quick", description = "Tiny sizes, to show the harness works (CI); its figures mean nothing.")
    boolean quick;

    BenchCluster startCluster() throws IOException {
        return BenchCluster.start(Optional.ofNullable(bootstrapServers), Optional.ofNullable(schemaRegistryUrl));
    }
}

package io.agentoutcomes.avro.registry;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RestSchemaRegistryClientTest {

    @Test
    void unreachableRegistryIsRetriedThenFailsClearly() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(
                List.of(URI.create("http://127.0.0.1:" + closedPort)), Optional.empty(), Duration.ofSeconds(2), 3,
                Duration.ofMillis(10));

        assertThatThrownBy(() -> client.schemaById(1))
                .isInstanceOf(SchemaRegistryUnavailableException.class)
                .hasMessageStartingWith("Schema registry at [http://127.0.0.1:" + closedPort
                        + "] did not answer GET /schemas/ids/1 after 3 attempts: " + ConnectException.class.getName())
                .hasCauseInstanceOf(ConnectException.class);
    }
}

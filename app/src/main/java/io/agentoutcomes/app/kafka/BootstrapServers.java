package io.agentoutcomes.app.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code bootstrap.servers} list, checked for a listening broker with a plain TCP connection: before any Kafka
 * client is made, so waiting for a Kafka that is not up yet costs no client warning per reconnect.
 */
public final class BootstrapServers {
    private BootstrapServers() {
    }

    /**
     * Returns once one of the servers accepts a TCP connection.
     *
     * @throws IOException saying, for each server, why not (a name that does not resolve, a refused connection)
     */
    public static void awaitConnectable(String bootstrapServers, Duration timeout) throws IOException {
        List<String> problems = new ArrayList<>();
        for (String server : bootstrapServers.split(",")) {
            String address = server.trim();
            if (address.isEmpty()) {
                continue;
            }
            int colon = address.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("bootstrap.servers: '" + address + "' is not host:port");
            }
            String host = address.substring(0, colon).replaceAll("^\\[|]$", "");
            int port = Integer.parseInt(address.substring(colon + 1));
            InetSocketAddress target = new InetSocketAddress(host, port);
            if (target.isUnresolved()) {
                problems.add(address + " (unknown host)");
                continue;
            }
            try (Socket socket = new Socket()) {
                socket.connect(target, (int) timeout.toMillis());
                return;
            } catch (IOException e) {
                problems.add(address + " (" + e.getMessage() + ")");
            }
        }
        throw new ConnectException("no bootstrap server accepts connections: " + String.join(", ", problems));
    }
}

package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The transactions a killed instance left open, as the brokers' transaction coordinators saw them. Under exactly-once
 * (v2) each stream thread has one transactional id, {@code <application.id>-<process id>-<thread>}; an instance killed
 * and not restarted never aborts its open transaction, so the coordinator rolls it back only once it is older than
 * {@code transaction.timeout.ms} (10 s, Kafka Streams' default under exactly-once) at its next check (the broker's
 * {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}, 10 s by default). Until then every
 * {@code read_committed} reader of the partitions it wrote stops at it: the survivor's restores of those changelogs and
 * its downstream stages. A restarted instance keeps its process id (in its state directory) and aborts the transaction
 * at once when it starts.
 */
final class HangingTransactions {
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    private static final String ROLLBACK = "Completed rollback of ongoing transaction for transactionalId ";

    private HangingTransactions() {
    }

    /** The process id Kafka Streams keeps in an instance's state directory. */
    static String processId(AppInstance instance, String applicationId) throws IOException {
        Path metadata = instance.dataDir().resolve("streams").resolve(applicationId).resolve("kafka-streams-process-metadata");
        return new ObjectMapper().readTree(metadata.toFile()).path("processId").asText();
    }

    /**
     * When the brokers last rolled back, for its timeout, a transaction of the given process (epoch ms), or empty when
     * none of its transactions was left open. Needs the brokers' logs at INFO ({@link BrokerCluster} starts them so).
     */
    static OptionalLong lastRolledBack(List<Path> brokerLogs, String applicationId, String processId) throws IOException {
        String id = ROLLBACK + applicationId + "-" + processId + "-";
        long last = -1;
        for (Path log : brokerLogs) {
            try (Stream<String> lines = Files.lines(log)) {
                last = Math.max(last, lines.filter(line -> line.contains(id) && line.endsWith("due to timeout"))
                        .mapToLong(line -> OffsetDateTime.parse(line.substring(0, line.indexOf(' ')), LOG_TIME)
                                .toInstant().toEpochMilli())
                        .max().orElse(-1));
            }
        }
        return last < 0 ? OptionalLong.empty() : OptionalLong.of(last);
    }
}

package io.agentoutcomes.app.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The service's changelog topics as a scenario sees them from outside: their records' offsets, and a topic setting
 * that has the broker's log cleaner compact them within seconds instead of days.
 */
final class Changelogs {
    private Changelogs() {
    }

    /** The changelog of {@code store} of the application {@code applicationId}, as Kafka Streams names it. */
    static String of(String applicationId, String store) {
        return applicationId + "-" + store + "-changelog";
    }

    /**
     * Sets {@code topics} to roll a segment after 1 s and to be cleaned as soon as 1 % of them is dirty, with no
     * compaction lag: the broker's cleaner (every 15 s by its default backoff) then keeps only the last record of each
     * key of every closed segment.
     */
    static void compactEagerly(String bootstrapServers, Collection<String> topics) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        for (String topic : topics) {
            changes.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                    new AlterConfigOp(new ConfigEntry(TopicConfig.SEGMENT_MS_CONFIG, "1000"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry(TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.01"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0"), AlterConfigOp.OpType.SET)));
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000))) {
            admin.incrementalAlterConfigs(changes).all().get(15, TimeUnit.SECONDS);
        }
    }

    /** The offsets of every committed record now on {@code topic}, over its partitions ("partition:offset"). */
    static Set<String> offsets(String bootstrapServers, String topic) {
        Set<String> offsets = new TreeSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic, Duration.ofSeconds(10)).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    offsets.add(record.partition() + ":" + record.offset());
                }
            }
        }
        return offsets;
    }
}

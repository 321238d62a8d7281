package io.agentoutcomes.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * What an application under test writes to the broker: records and bytes (key, value and headers as sent), and how
 * many partitions each transaction spans. Kafka Streams takes its clients from a {@link KafkaClientSupplier}
 * ({@code default.client.supplier}); {@link Supplier} hands out the default ones with every producer wrapped to count,
 * filed under the application id its client id starts with.
 */
final class WriteCounting {
    /** The figures of one application (all its producers), since it started. */
    static final class Writes {
        final LongAdder records = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final LongAdder transactions = new LongAdder();
        final LongAdder partitionsInTransactions = new LongAdder();
        final Map<String, LongAdder> recordsByTopic = new ConcurrentHashMap<>();

        double partitionsPerTransaction() {
            long txns = transactions.sum();
            return txns == 0 ? 0 : (double) partitionsInTransactions.sum() / txns;
        }
    }

    private static final Map<String, Writes> BY_APPLICATION = new ConcurrentHashMap<>();

    private WriteCounting() {
    }

    /** The figures of the application whose client ids start with {@code applicationId}. */
    static Writes of(String applicationId) {
        return BY_APPLICATION.computeIfAbsent(applicationId, id -> new Writes());
    }

    /** The default clients, each producer counting into the figures of its application. */
    public static final class Supplier implements KafkaClientSupplier {
        private final DefaultKafkaClientSupplier clients = new DefaultKafkaClientSupplier();

        @Override
        public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
            String clientId = String.valueOf(config.get(ProducerConfig.CLIENT_ID_CONFIG));
            Writes writes = BY_APPLICATION.entrySet().stream().filter(e -> clientId.startsWith(e.getKey() + "-"))
                    .map(Map.Entry::getValue).findFirst().orElseGet(Writes::new);
            return new CountingProducer(clients.getProducer(config), writes);
        }

        @Override
        public Admin getAdmin(Map<String, Object> config) {
            return clients.getAdmin(config);
        }

        @Override
        public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
            return clients.getConsumer(config);
        }

        @Override
        public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
            return clients.getRestoreConsumer(config);
        }

        @Override
        public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
            return clients.getGlobalConsumer(config);
        }
    }

    /** A producer that counts what it sends and the partitions of each transaction, and otherwise delegates. */
    private static final class CountingProducer implements Producer<byte[], byte[]> {
        private final Producer<byte[], byte[]> producer;
        private final Writes writes;
        /** The partitions written in the open transaction (filled from the acknowledgements, on the I/O thread). */
        private final Set<TopicPartition> inTransaction = ConcurrentHashMap.newKeySet();
        /** Whether the open transaction commits consumer offsets: one more partition (of __consumer_offsets) in it. */
        private volatile boolean offsetsInTransaction;

        CountingProducer(Producer<byte[], byte[]> producer, Writes writes) {
            this.producer = producer;
            this.writes = writes;
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            return send(record, null);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            long size = (record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length);
            for (Header header : record.headers()) {
                size += header.key().length() + (header.value() == null ? 0 : header.value().length);
            }
            writes.records.increment();
            writes.bytes.add(size);
            writes.recordsByTopic.computeIfAbsent(record.topic(), t -> new LongAdder()).increment();
            return producer.send(record, (metadata, exception) -> {
                if (metadata != null) {
                    inTransaction.add(new TopicPartition(metadata.topic(), metadata.partition()));
                }
                if (callback != null) {
                    callback.onCompletion(metadata, exception);
                }
            });
        }

        @Override
        public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
            producer.sendOffsetsToTransaction(offsets, group);
            offsetsInTransaction = true;
        }

        @Override
        public void commitTransaction() {
            producer.commitTransaction();
            // commitTransaction flushed every send of the transaction first, so every acknowledgement is in
            writes.transactions.increment();
            writes.partitionsInTransactions.add(inTransaction.size() + (offsetsInTransaction ? 1 : 0));
            inTransaction.clear();
            offsetsInTransaction = false;
        }

        @Override
        public void abortTransaction() {
            producer.abortTransaction();
            inTransaction.clear();
            offsetsInTransaction = false;
        }

        @Override
        public void initTransactions() {
            producer.initTransactions();
        }

        @Override
        public void beginTransaction() {
            producer.beginTransaction();
        }

        @Override
        public void registerMetricForSubscription(KafkaMetric metric) {
            producer.registerMetricForSubscription(metric);
        }

        @Override
        public void unregisterMetricFromSubscription(KafkaMetric metric) {
            producer.unregisterMetricFromSubscription(metric);
        }

        @Override
        public void flush() {
            producer.flush();
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic) {
            return producer.partitionsFor(topic);
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return producer.metrics();
        }

        @Override
        public Uuid clientInstanceId(Duration timeout) {
            return producer.clientInstanceId(timeout);
        }

        @Override
        public void close() {
            producer.close();
        }

        @Override
        public void close(Duration timeout) {
            producer.close(timeout);
        }
    }
}

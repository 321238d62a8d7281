package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.app.registry.KafkaSchemaStore;
import io.agentoutcomes.app.registry.SchemaRegistryServer;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.client.testing.TestBroker;
import io.agentoutcomes.topology.topic.Topics;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A schema registry outage pauses the pipeline; it never turns good records into rejected ones. */
class RegistryOutageTest {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void recordsWhoseSchemaCannotBeFetchedDuringARegistryOutageAreProcessedOnceItIsBackNotRejected() throws Exception {
        Map<String, Object> clients = Map.of("bootstrap.servers", kafka.bootstrapServers());
        TopicProvisioner.ensure(clients, List.of(new TopicProvisioner.TopicSpec("_schemas", 1, Topics.Cleanup.COMPACT)), (short) -1);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        KafkaSchemaStore store = new KafkaSchemaStore("_schemas", clients);
        SchemaRegistryServer registry = new SchemaRegistryServer(store, "127.0.0.1", port);
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                ConfigLoader.BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                ConfigLoader.SCHEMA_REGISTRY_URL, registry.url(),
                ConfigLoader.TOPIC_PARTITIONS, "1",
                ConfigLoader.DATA_DIR, dataDir.toString(),
                ConfigLoader.HTTP_PORT, "0"));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            // A producer's newer schema (one more optional field), registered while the registry is up; the
            // service has never seen its id.
            Schema newer = withExtraField(AgentResult.getClassSchema());
            int id = new RestSchemaRegistryClient(List.of(URI.create(registry.url())), Optional.empty(),
                    Duration.ofSeconds(5), 1, Duration.ofMillis(10)).register("agent-results-value", newer.toString());
            AgentResult result = AgentResult.newBuilder().setResultId("r-1").setAgentId("agent-1").setTaskId("task-1")
                    .setDialect(Dialect.VAT_ENVELOPE).setOutcome(Success.newBuilder().build()).build();
            byte[] value = encode(result, newer, id);

            registry.close();
            store.close();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    kafka.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(TopicNames.AGENT_RESULTS, "task-1".getBytes(), value)).get();
            }
            Thread.sleep(12_000);
            assertThat(read(kafka, TopicNames.REJECTED_INPUT, Duration.ofSeconds(1))).isEmpty();
            assertThat(read(kafka, TopicNames.OUTCOMES_CLASSIFIED, Duration.ofSeconds(1))).isEmpty();

            KafkaSchemaStore restartedStore = new KafkaSchemaStore("_schemas", clients);
            try (SchemaRegistryServer restarted = new SchemaRegistryServer(restartedStore, "127.0.0.1", port)) {
                List<ConsumerRecord<byte[], byte[]>> outcomes = read(kafka, TopicNames.OUTCOMES_CLASSIFIED, Duration.ofSeconds(60));
                assertThat(outcomes).hasSize(1);
                assertThat(new String(outcomes.get(0).key())).isEqualTo("task-1");
                assertThat(read(kafka, TopicNames.REJECTED_INPUT, Duration.ofSeconds(1))).isEmpty();
                assertThat(service.streamsState()).isIn(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
            } finally {
                restartedStore.close();
            }
        }
    }

    private static Schema withExtraField(Schema schema) {
        String json = schema.toString();
        String extra = "{\"name\":\"extraNote\",\"type\":[\"null\",\"string\"],\"default\":null},";
        return new Schema.Parser().parse(json.replaceFirst("\"fields\":\\[", "\"fields\":[" + extra));
    }

    /** The record in the Confluent wire format, written with the newer schema under its id. */
    private static byte[] encode(AgentResult result, Schema newer, int id) throws Exception {
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(old, null);
        new SpecificDatumWriter<AgentResult>(AgentResult.getClassSchema()).write(result, encoder);
        encoder.flush();
        GenericRecord asNewer = new GenericDatumReader<GenericRecord>(AgentResult.getClassSchema(), newer)
                .read(null, DecoderFactory.get().binaryDecoder(old.toByteArray(), null));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder framed = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(newer).write(asNewer, framed);
        framed.flush();
        return out.toByteArray();
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(TestBroker kafka, String topic, Duration wait) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + wait.toNanos();
            while (records.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}

package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The schema ids the service registers, and the records written with them, across a restart of the service (and of the embedded broker). */
class SchemaIdsSurviveRestartTest extends ServiceOnTestBroker {
    @Test
    void serviceRegistersItsSchemasAndTheIdsSurviveARestart() throws Exception {
        AppConfig config = config("restart");
        NodeFinished record = NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setStepIndex(1)
                .setAttempt(0).setTimestamp(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli())
                .setResultType(StepResultType.SUCCESS).setPayloadResults("{\"n1\":\"done\"}").build();
        String topic = config.topicPrefix() + "node-finished";
        int registeredId;
        byte[] written;

        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            SchemaRegistryClient registry = restClient(service.schemaRegistryUrl());
            registeredId = registry.idOf(topic + "-value", NodeFinished.getClassSchema().toString());
            assertThat(registry.latest(config.topicPrefix() + "agent-results-value").version()).isEqualTo(1);
            assertThat(registry.latest(config.topicPrefix() + "continuation-events-value").version()).isEqualTo(1);

            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl(),
                    AvroSerdeConfig.AUTO_REGISTER_SCHEMAS, "false");
            try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(producerConfig(),
                    new StringSerializer(), AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
                producer.send(new ProducerRecord<>(topic, "job-1", record)).get();
            }
            List<ConsumerRecord<String, NodeFinished>> read = readAll(topic, 1,
                    AvroSerde.specific(NodeFinished.class).configured(serde, false).deserializer());
            assertThat(read).extracting(ConsumerRecord::value).containsExactly(record);
            written = readAll(topic, 1, new ByteArrayDeserializer()).get(0).value();
            assertThat(ByteBuffer.wrap(written, 1, 4).getInt()).isEqualTo(registeredId);
        }

        try (AgentOutcomesService restarted = AgentOutcomesService.start(config)) {
            SchemaRegistryClient registry = restClient(restarted.schemaRegistryUrl());
            assertThat(registry.schemaById(registeredId)).isEqualTo(NodeFinished.getClassSchema().toString());
            assertThat(registry.register(topic + "-value", NodeFinished.getClassSchema().toString())).isEqualTo(registeredId);
            NodeFinished decoded = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl()), false)
                    .deserializer().deserialize(topic, written);
            assertThat(decoded).isEqualTo(record);
        }
    }

    @Test
    void embeddedDefaultKeepsSchemaIdsAndRecordsAcrossARestartOfBrokerAndService() throws Exception {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                ConfigLoader.DATA_DIR, dataDir.toString(),
                ConfigLoader.HTTP_PORT, "0",
                ConfigLoader.EMBEDDED_KAFKA_PORT, "0",
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0"));
        NodeFinished record = NodeFinished.newBuilder().setJobId("job-9").setNodeId("n9").setAttempt(2).build();
        int id;
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl()), false);
            try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(
                    Map.of("bootstrap.servers", service.bootstrapServers()), new StringSerializer(), serde.serializer())) {
                producer.send(new ProducerRecord<>("node-finished", "job-9", record)).get();
            }
            id = restClient(service.schemaRegistryUrl()).idOf("node-finished-value", NodeFinished.getClassSchema().toString());
        }

        try (AgentOutcomesService restarted = AgentOutcomesService.start(config)) {
            awaitHealthy(restarted);
            assertThat(restClient(restarted.schemaRegistryUrl()).idOf("node-finished-value",
                    NodeFinished.getClassSchema().toString())).isEqualTo(id);
            AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl()), false);
            assertThat(read(restarted.bootstrapServers(), "node-finished", 1, new StringDeserializer(), serde.deserializer()))
                    .extracting(ConsumerRecord::value).containsExactly(record);
        }
    }
}

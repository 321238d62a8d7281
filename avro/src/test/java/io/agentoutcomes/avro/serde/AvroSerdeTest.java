package io.agentoutcomes.avro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.Records;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroSerdeTest {
    private final String scope = "serde-test-" + UUID.randomUUID();
    private final Map<String, String> config = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope);

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    static Stream<SpecificRecord> everyRecordType() {
        return Stream.of(Records.success(), Records.failure(), Records.inProgress(), Records.skipped(),
                Records.nodeFinished(), Records.continuationEvaluated());
    }

    @ParameterizedTest
    @MethodSource("everyRecordType")
    void everyRecordTypeRoundTripsWithoutDrift(SpecificRecord record) {
        AvroSerde<SpecificRecord> serde = specificSerde(record);

        byte[] bytes = serde.serializer().serialize("topic", record);
        SpecificRecord decoded = serde.deserializer().deserialize("topic", bytes);

        assertThat(decoded).isEqualTo(record);
        assertThat(decoded.getClass()).isEqualTo(record.getClass());
        assertThat(serde.serializer().serialize("topic", decoded)).isEqualTo(bytes);
    }

    @Test
    void writesTheConfluentWireFormat() {
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(config, false);

        byte[] bytes = serde.serializer().serialize("node-finished", Records.nodeFinished());

        SchemaRegistryClient registry = MockSchemaRegistry.clientFor("mock://" + scope);
        int id = registry.idOf("node-finished-value", NodeFinished.getClassSchema().toString());
        assertThat(bytes[0]).isEqualTo((byte) 0);
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
        assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).isEqualTo(avroBinary(Records.nodeFinished()));
    }

    @Test
    void keysAreRegisteredUnderTheKeySubject() {
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(config, true);

        serde.serializer().serialize("node-finished", Records.nodeFinished());

        assertThat(MockSchemaRegistry.clientFor("mock://" + scope).latest("node-finished-key").version()).isEqualTo(1);
    }

    @Test
    void moneyStaysExact() {
        AvroSerde<AgentResult> serde = AvroSerde.specific(AgentResult.class).configured(config, false);
        AgentResult record = Records.success();
        record.getExecution().getCost().setTotal(Money.toBytes(new BigDecimal("0.000000100000")));

        AgentResult decoded = serde.deserializer().deserialize("t", serde.serializer().serialize("t", record));

        assertThat(Money.toDecimal(decoded.getExecution().getCost().getTotal())).isEqualByComparingTo("0.0000001");
        assertThat(Money.toDecimal(decoded.getExecution().getCost().getTotal()).scale()).isEqualTo(12);
        assertThat(Money.picos(decoded.getExecution().getCost().getTotal())).isEqualTo(100_000L);
    }

    @Test
    void nodeFinishedWrittenBeforeResultTypeExistedReadsWithResultTypeNull() throws IOException {
        Schema v1 = schemaResource("/NodeFinished-v1.avsc");
        GenericRecord old = new GenericData.Record(v1);
        old.put("jobId", "job-1");
        old.put("nodeId", "n1");
        old.put("payloadResults", "{\"n1\":1}");
        old.put("stepIndex", 2);
        old.put("attempt", 0);
        SchemaRegistryClient registry = MockSchemaRegistry.clientFor("mock://" + scope);
        byte[] written = AvroSerde.generic(registry).configured(config, false).serializer().serialize("node-finished", old);

        NodeFinished read = AvroSerde.specific(NodeFinished.class, registry).configured(config, false)
                .deserializer().deserialize("node-finished", written);

        assertThat(read.getJobId()).isEqualTo("job-1");
        assertThat(read.getNodeId()).isEqualTo("n1");
        assertThat(read.getPayloadResults()).isEqualTo("{\"n1\":1}");
        assertThat(read.getStepIndex()).isEqualTo(2);
        assertThat(read.getResultType()).isNull();
        assertThat(read.getReason()).isNull();
        assertThat(registry.latest("node-finished-value").version()).isEqualTo(1);
    }

    @Test
    void currentNodeFinishedRegistersAsASecondCompatibleVersion() throws IOException {
        SchemaRegistryClient registry = MockSchemaRegistry.clientFor("mock://" + scope);
        int v1 = registry.register("node-finished-value", schemaResource("/NodeFinished-v1.avsc").toString());

        AvroSerde.specific(NodeFinished.class, registry).configured(config, false)
                .serializer().serialize("node-finished", Records.nodeFinished());

        assertThat(registry.latest("node-finished-value").version()).isEqualTo(2);
        assertThat(registry.latest("node-finished-value").id()).isNotEqualTo(v1);
    }

    @Test
    void useLatestVersionWritesWithTheSubjectsLatestSchema() throws IOException {
        SchemaRegistryClient registry = MockSchemaRegistry.clientFor("mock://" + scope);
        Schema v1 = schemaResource("/NodeFinished-v1.avsc");
        int v1Id = registry.register("node-finished-value", v1.toString());
        Map<String, String> latestConfig = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope,
                AvroSerdeConfig.AUTO_REGISTER_SCHEMAS, "false", AvroSerdeConfig.USE_LATEST_VERSION, "true");

        byte[] bytes = AvroSerde.specific(NodeFinished.class, registry).configured(latestConfig, false)
                .serializer().serialize("node-finished", Records.nodeFinished());
        GenericRecord read = AvroSerde.generic(registry).configured(config, false)
                .deserializer().deserialize("node-finished", bytes);

        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(v1Id);
        assertThat(read.getSchema().getField("resultType")).isNull();
        assertThat(read.get("nodeId").toString()).isEqualTo("n1");
        assertThat(read.get("stepIndex")).isEqualTo(3);
    }

    @Test
    void withoutAutoRegisterAnUnregisteredSchemaIsAClearError() {
        Map<String, String> noRegister = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope,
                AvroSerdeConfig.AUTO_REGISTER_SCHEMAS, "false");
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(noRegister, false);

        assertThatThrownBy(() -> serde.serializer().serialize("node-finished", Records.nodeFinished()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Subject 'node-finished-value' not found");
    }

    @Test
    void unknownMagicByteIsAClearError() {
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(config, false);
        byte[] json = "{\"job_id\":\"j1\"}".getBytes();

        assertThatThrownBy(() -> serde.deserializer().deserialize("node-finished", json))
                .isInstanceOf(UnknownMagicByteException.class)
                .hasMessage("Unknown magic byte 0x7b in a record from topic 'node-finished': expected 0x00, the "
                        + "Confluent wire format (magic byte, 4-byte schema id, Avro binary); the record looks "
                        + "like JSON, which belongs on a -json topic");
    }

    @Test
    void unknownSchemaIdIsAClearError() {
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(config, false);
        byte[] bytes = {0, 0, 0, 0x30, 0x39, 2, 'a'};

        assertThatThrownBy(() -> serde.deserializer().deserialize("node-finished", bytes))
                .isInstanceOf(UnknownSchemaIdException.class)
                .hasMessage("Schema id 12345 of a record from topic 'node-finished' is not known to the schema "
                        + "registry at mock://" + scope + ": the record was written against another registry, "
                        + "or its schema was deleted")
                .extracting(e -> ((UnknownSchemaIdException) e).schemaId()).isEqualTo(12345);
    }

    @Test
    void truncatedRecordIsAClearError() {
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(config, false);

        assertThatThrownBy(() -> serde.deserializer().deserialize("node-finished", new byte[] {0, 0, 1}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Record of 3 bytes from topic 'node-finished' is too short");
    }

    @Test
    void corruptAvroAfterAValidHeaderIsAClearError() {
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class).configured(config, false);
        byte[] good = serde.serializer().serialize("node-finished", Records.nodeFinished());
        byte[] truncated = Arrays.copyOf(good, 12);

        assertThatThrownBy(() -> serde.deserializer().deserialize("node-finished", truncated))
                .isInstanceOf(SerializationException.class)
                .hasMessageStartingWith("Could not decode the Avro record from topic 'node-finished' written with schema id");
    }

    @Test
    void missingRegistryUrlIsAClearConfigurationError() {
        assertThatThrownBy(() -> AvroSerde.specific(NodeFinished.class).configured(Map.of(), false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Missing required configuration \"schema.registry.url\"");
    }

    @Test
    void sameSchemaTextGetsTheSameIdAcrossSubjects() throws IOException {
        SchemaRegistryState state = new SchemaRegistryState();
        String schema = NodeFinished.getClassSchema().toString();

        int first = state.register("a-value", schema).id();
        int second = state.register("b-value", new ObjectMapper().readTree(schema).toPrettyString()).id();

        assertThat(second).isEqualTo(first);
    }

    @SuppressWarnings("unchecked")
    private AvroSerde<SpecificRecord> specificSerde(SpecificRecord record) {
        return (AvroSerde<SpecificRecord>) (AvroSerde<?>) AvroSerde.specific(record.getClass()).configured(config, false);
    }

    private static byte[] avroBinary(SpecificRecord record) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Schema schemaResource(String path) throws IOException {
        try (InputStream in = AvroSerdeTest.class.getResourceAsStream(path)) {
            return new Schema.Parser().parse(in);
        }
    }
}

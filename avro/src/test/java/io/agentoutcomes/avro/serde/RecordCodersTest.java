package io.agentoutcomes.avro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Records;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.BoundedBinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-written coders against Avro's own writer and reader on many random records of each coded class: the same
 * bytes, and each side reads the other's bytes back to an equal record.
 */
class RecordCodersTest {
    private static final int RECORDS = 1_500;
    /** Avro's generic path all the way down (custom coders off, Avro's default), with the serde's conversions. */
    private static final SpecificData AVRO = avroModel();

    private final String scope = "coders-test-" + UUID.randomUUID();
    private final Map<String, String> config = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope);

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    private static SpecificData avroModel() {
        SpecificData model = new SpecificData(RecordCodersTest.class.getClassLoader());
        model.addLogicalTypeConversion(new Conversions.DecimalConversion());
        return model;
    }

    static Stream<Schema> codedRecords() {
        return Stream.of(AgentResult.SCHEMA$, ClassifiedOutcome.SCHEMA$, RetryRequest.SCHEMA$, AgentMetrics.SCHEMA$);
    }

    @ParameterizedTest
    @MethodSource("codedRecords")
    void theCoderWritesAvrosOwnBytesAndEachReadsTheOthersBack(Schema schema) throws IOException {
        assertThat(RecordCoders.isCoded(schema)).isTrue();
        long seed = schema.getFullName().hashCode();
        RandomRecords random = new RandomRecords(seed);
        Map<String, Set<Integer>> branchesSeen = new HashMap<>();
        for (int i = 0; i < RECORDS; i++) {
            SpecificRecord record = random.next(schema);
            noteBranches(schema, record, branchesSeen);

            byte[] avro = write(new SpecificDatumWriter<>(schema, AVRO), record);
            byte[] coded = write(RecordCoders.writerFor(schema), record);

            assertThat(Arrays.equals(coded, avro)).as("the bytes of record %d of seed %d", i, seed).isTrue();
            assertThat(read(new SpecificDatumReader<>(schema, schema, AVRO), coded).equals(record))
                    .as("Avro's reader, record %d", i).isTrue();
            assertThat(read(RecordCoders.readerFor(schema, schema), avro).equals(record))
                    .as("the coder's reader, record %d", i).isTrue();
        }
        for (Schema.Field field : schema.getFields()) {
            if (field.schema().getType() == Schema.Type.UNION) {
                assertThat(branchesSeen.get(field.name())).as(field.name())
                        .hasSize(field.schema().getTypes().size());
            }
        }
    }

    /** Which branch of each union field the record took, to show every branch (null and value) was tried. */
    private static void noteBranches(Schema schema, SpecificRecord record, Map<String, Set<Integer>> seen) {
        for (Schema.Field field : schema.getFields()) {
            if (field.schema().getType() == Schema.Type.UNION) {
                seen.computeIfAbsent(field.name(), name -> new HashSet<>())
                        .add(AVRO.resolveUnion(field.schema(), record.get(field.pos())));
            }
        }
    }

    @Test
    void aRecordWrittenWithAnOlderSchemaIsResolvedByAvrosReader() {
        Schema older = without(AgentResult.SCHEMA$, "attribution"); // AgentResult before its attribution field
        AgentResult result = Records.failure();
        GenericRecord written = new GenericData.Record(older);
        for (Schema.Field field : older.getFields()) {
            written.put(field.name(), result.get(field.name()));
        }

        byte[] bytes = AvroSerde.generic(null).configured(config, false).serializer().serialize("agent-results", written);
        AgentResult read = AvroSerde.specific(AgentResult.class).configured(config, false).deserializer()
                .deserialize("agent-results", bytes);

        assertThat(read).isEqualTo(result);
        assertThat(RecordCoders.readerFor(older, AgentResult.SCHEMA$)).isInstanceOf(SpecificDatumReader.class);
    }

    @Test
    void aGenericRecordOfACodedSchemaIsWrittenByAvro() {
        AgentResult result = Records.skipped();
        GenericRecord generic = new GenericData.Record(AgentResult.SCHEMA$);
        for (Schema.Field field : AgentResult.SCHEMA$.getFields()) {
            generic.put(field.pos(), result.get(field.pos()));
        }
        AvroSerde<AgentResult> serde = AvroSerde.specific(AgentResult.class).configured(config, false);

        byte[] fromGeneric = AvroSerde.generic(null).configured(config, false).serializer().serialize("agent-results", generic);

        assertThat(fromGeneric).isEqualTo(serde.serializer().serialize("agent-results", result));
        assertThat(serde.deserializer().deserialize("agent-results", fromGeneric)).isEqualTo(result);
    }

    @Test
    void anOutcomeBranchOutsideTheUnionIsRefused() {
        AvroSerde<AgentResult> serde = AvroSerde.specific(AgentResult.class).configured(config, false);
        AgentResult.Builder small = AgentResult.newBuilder().setResultId("r").setAgentId("a").setTaskId("t");
        byte[] success = serde.serializer().serialize("agent-results", small.setOutcome(Success.newBuilder().build()).build());
        byte[] skipped = serde.serializer().serialize("agent-results", small.setOutcome(Skipped.newBuilder().setReason("").build()).build());
        int at = 0;
        while (success[at] == skipped[at]) {
            at++; // the union's branch index: 0 against 3
        }
        skipped[at] = 2 * 9; // zig-zag varint of branch 9

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", skipped))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void aNullOutcomeIsRefusedLikeAvroRefusesIt() {
        AgentResult noOutcome = AgentResult.newBuilder(Records.success()).build();
        noOutcome.setOutcome(null);
        AvroSerde<AgentResult> serde = AvroSerde.specific(AgentResult.class).configured(config, false);

        assertThatThrownBy(() -> serde.serializer().serialize("agent-results", noOutcome))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Not in union");
    }

    private static Schema without(Schema record, String fieldName) {
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : record.getFields()) {
            if (!field.name().equals(fieldName)) {
                fields.add(new Schema.Field(field, field.schema()));
            }
        }
        return Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), false, fields);
    }

    @SuppressWarnings("unchecked")
    private static byte[] write(DatumWriter<?> writer, Object record) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        ((DatumWriter<Object>) writer).write(record, encoder);
        encoder.flush();
        return bytes.toByteArray();
    }

    private static Object read(DatumReader<?> reader, byte[] bytes) throws IOException {
        return reader.read(null, new BoundedBinaryDecoder().reset(bytes, 0, bytes.length));
    }
}

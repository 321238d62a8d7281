package io.agentoutcomes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * Contract 2 against contract 1 (its schemas kept under test resources): the same bytes on the wire, times and money
 * as plain {@code long} and {@code bytes} instead of logical types. A registry accepts the new schemas as new versions
 * under FULL compatibility, and a reader of either version reads records written with the other.
 */
class ContractVersionsTest {
    private static final List<String> TOPIC_RECORDS = List.of("AgentResult", "NodeFinished", "ContinuationEvaluated",
            "ClassifiedOutcome", "RetryRequest", "JobReplayState", "AgentMetrics");

    private static Map<String, Schema> contractOne() throws IOException {
        Schema.Parser parser = new Schema.Parser();
        for (String common : List.of("ConfidenceAction", "ErrorCategory", "ErrorHandling", "ResultType", "RetryAction",
                "StepResultType", "StopReason")) {
            parser.parse(resource("common/" + common + ".avsc"));
        }
        for (String record : List.of("AgentResult", "NodeFinished", "ContinuationEvaluated", "ClassifiedOutcome",
                "RetryRequest", "JobReplayState", "AgentMetrics", "TaskAttempts")) {
            parser.parse(resource(record + ".avsc"));
        }
        return parser.getTypes().entrySet().stream().collect(Collectors.toMap(
                e -> e.getKey().substring(e.getKey().lastIndexOf('.') + 1), Map.Entry::getValue));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ContractVersionsTest.class.getResourceAsStream("/contract-1/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Schema contractTwo(String record) {
        return switch (record) {
            case "AgentResult" -> AgentResult.getClassSchema();
            case "NodeFinished" -> NodeFinished.getClassSchema();
            case "ContinuationEvaluated" -> ContinuationEvaluated.getClassSchema();
            case "ClassifiedOutcome" -> ClassifiedOutcome.getClassSchema();
            case "RetryRequest" -> RetryRequest.getClassSchema();
            case "JobReplayState" -> JobReplayState.getClassSchema();
            case "AgentMetrics" -> AgentMetrics.getClassSchema();
            default -> throw new IllegalArgumentException(record);
        };
    }

    /** Fields added since contract 2 was released, each nullable or with a default (docs/schemas.md). */
    private static final Set<String> ADDED_SINCE = Set.of("reasoningTokens", "attribution", "tenant", "team", "user", "tag",
            "lengthMs", "fallbackProvider", "fallbackModel", "fallbackCause", "fallbackReason");

    /** A record's schema as contract 2 released it: today's without the fields added since, wherever they are nested. */
    private static Schema released(String record) throws IOException {
        JsonNode schema = new ObjectMapper().readTree(contractTwo(record).toString());
        withoutAddedFields(schema);
        return new Schema.Parser().parse(schema.toString());
    }

    private static void withoutAddedFields(JsonNode node) {
        if (node.isObject() && node.get("fields") instanceof ArrayNode fields) {
            for (Iterator<JsonNode> field = fields.elements(); field.hasNext(); ) {
                if (ADDED_SINCE.contains(field.next().get("name").asText())) {
                    field.remove();
                }
            }
        }
        node.elements().forEachRemaining(ContractVersionsTest::withoutAddedFields);
    }

    /**
     * Issue 23 added {@code Usage.reasoningTokens} (null by default) and {@code AgentMetrics.reasoningTokens} (0 by
     * default): the registry takes each record as the next version after contract 1 and contract 2 as released under
     * FULL_TRANSITIVE, so readers and writers of any of the three read each other's records.
     */
    @Test
    void reasoningTokensAreAFullyTransitivelyCompatibleAddition() throws IOException {
        Map<String, Schema> one = contractOne();
        SchemaRegistryState registry = new SchemaRegistryState();
        registry.setCompatibility(null, CompatibilityLevel.FULL_TRANSITIVE);
        for (String record : TOPIC_RECORDS) {
            String subject = record + "-value";
            registry.apply(registry.prepare(subject, one.get(record).toString()).schema());
            registry.apply(registry.prepare(subject, released(record).toString()).schema());
            SchemaRegistryState.Registration next = registry.prepare(subject, contractTwo(record).toString());
            assertThat(next.schema().version()).as(record).isEqualTo(next.isNew() ? 3 : 2);
        }
        assertThat(released("AgentResult")).isNotEqualTo(AgentResult.getClassSchema());
        assertThat(released("AgentMetrics").getField("reasoningTokens")).isNull();
        AgentResult written = Records.success();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<AgentResult>(released("AgentResult")).write(written, encoder);
        encoder.flush();
        AgentResult read = new SpecificDatumReader<AgentResult>(released("AgentResult"), AgentResult.getClassSchema())
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read).isEqualTo(written);
        assertThat(read.getExecution().getUsage().getReasoningTokens()).isNull();
    }

    /**
     * Issue 23 added {@code AgentResult.attribution} (a nullable record, null by default) and the attribution
     * dimensions of {@code AgentMetrics} (nullable strings): a reader of contract 2 as released skips them, and a
     * record written before them reads them null.
     */
    @Test
    void attributionIsAnAdditionReadersOfEitherVersionRead() throws IOException {
        assertThat(released("AgentResult").getField("attribution")).isNull();
        assertThat(released("AgentMetrics").getField("tenant")).isNull();
        AgentResult attributed = AgentResult.newBuilder(Records.success())
                .setAttribution(new Attribution("acme", "search", "u-1", List.of("batch"))).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<AgentResult>(AgentResult.getClassSchema()).write(attributed, encoder);
        encoder.flush();
        GenericRecord asReleased = new GenericDatumReader<GenericRecord>(AgentResult.getClassSchema(), released("AgentResult"))
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(asReleased.get("resultId").toString()).isEqualTo(attributed.getResultId());

        ByteArrayOutputStream before = new ByteArrayOutputStream();
        BinaryEncoder beforeEncoder = EncoderFactory.get().binaryEncoder(before, null);
        new GenericDatumWriter<GenericRecord>(released("AgentResult")).write(asReleased, beforeEncoder);
        beforeEncoder.flush();
        AgentResult read = new SpecificDatumReader<AgentResult>(released("AgentResult"), AgentResult.getClassSchema())
                .read(null, DecoderFactory.get().binaryDecoder(before.toByteArray(), null));
        assertThat(read.getAttribution()).isNull();
        assertThat(AgentResult.newBuilder(read).setAttribution(attributed.getAttribution()).build()).isEqualTo(attributed);
    }

    /**
     * Issue 23 appended {@code BUDGET_EXCEEDED} to {@code StopReason}, which has a default: the registry takes
     * {@code ClassifiedOutcome} with it under FULL_TRANSITIVE, and a reader of the enum before it reads the new symbol
     * as the default, {@code COMPLETED}, instead of failing.
     */
    @Test
    void budgetExceededIsAFullyTransitivelyCompatibleAdditionReadByOlderReadersAsTheDefault() throws IOException {
        Schema current = StopReason.getClassSchema();
        Schema before = Schema.createEnum(current.getName(), current.getDoc(), current.getNamespace(),
                current.getEnumSymbols().subList(0, current.getEnumSymbols().indexOf("BUDGET_EXCEEDED")),
                current.getEnumDefault());
        SchemaRegistryState registry = new SchemaRegistryState();
        registry.setCompatibility(null, CompatibilityLevel.FULL_TRANSITIVE);
        registry.apply(registry.prepare("stop-reason", before.toString()).schema());

        assertThat(registry.prepare("stop-reason", current.toString()).isNew()).isTrue();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<Object>(current).write(new GenericData.EnumSymbol(current, "BUDGET_EXCEEDED"), encoder);
        encoder.flush();
        Object read = new GenericDatumReader<Object>(current, before).read(null,
                DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read.toString()).isEqualTo("COMPLETED");
    }

    /**
     * Issue 33 appended {@code RETRY_BUDGET_EXHAUSTED} after {@code BUDGET_EXCEEDED}: the registry takes it after the
     * enum of issue 23 under FULL_TRANSITIVE, and a reader of that enum reads the new symbol as {@code COMPLETED}.
     */
    @Test
    void retryBudgetExhaustedIsAFullyTransitivelyCompatibleAdditionReadByOlderReadersAsTheDefault() throws IOException {
        Schema current = StopReason.getClassSchema();
        Schema before = Schema.createEnum(current.getName(), current.getDoc(), current.getNamespace(),
                current.getEnumSymbols().subList(0, current.getEnumSymbols().indexOf("RETRY_BUDGET_EXHAUSTED")),
                current.getEnumDefault());
        assertThat(before.getEnumSymbols()).endsWith("BUDGET_EXCEEDED");
        SchemaRegistryState registry = new SchemaRegistryState();
        registry.setCompatibility(null, CompatibilityLevel.FULL_TRANSITIVE);
        registry.apply(registry.prepare("stop-reason", before.toString()).schema());

        assertThat(registry.prepare("stop-reason", current.toString()).isNew()).isTrue();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<Object>(current).write(new GenericData.EnumSymbol(current, "RETRY_BUDGET_EXHAUSTED"), encoder);
        encoder.flush();
        Object read = new GenericDatumReader<Object>(current, before).read(null,
                DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read.toString()).isEqualTo("COMPLETED");
    }

    @Test
    void aRegistryTakesContractTwoAsTheNextVersionUnderFullCompatibility() throws IOException {
        Map<String, Schema> one = contractOne();
        SchemaRegistryState registry = new SchemaRegistryState();
        registry.setCompatibility(null, CompatibilityLevel.FULL_TRANSITIVE);
        for (String record : TOPIC_RECORDS) {
            String subject = record + "-value";
            registry.apply(registry.prepare(subject, one.get(record).toString()).schema());
            SchemaRegistryState.Registration next = registry.prepare(subject, contractTwo(record).toString());
            assertThat(next.isNew()).as(record).isTrue();
            assertThat(next.schema().version()).as(record).isEqualTo(2);
        }
    }

    /**
     * Issue 20 appended {@code compensationPending} (default false) to {@code JobReplayState}: the registry takes it as
     * the next version after contract 1 and the version without the field under FULL_TRANSITIVE, and records written
     * with either read with the other.
     */
    @Test
    void jobReplayStateWithCompensationPendingIsFullyTransitivelyCompatible() throws IOException {
        Schema current = JobReplayState.getClassSchema();
        Schema before = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false,
                current.getFields().stream().filter(f -> !f.name().equals("compensationPending"))
                        .map(f -> new Schema.Field(f, f.schema())).toList());
        SchemaRegistryState registry = new SchemaRegistryState();
        registry.setCompatibility(null, CompatibilityLevel.FULL_TRANSITIVE);
        registry.apply(registry.prepare("replay-state-value", contractOne().get("JobReplayState").toString()).schema());
        registry.apply(registry.prepare("replay-state-value", before.toString()).schema());

        SchemaRegistryState.Registration next = registry.prepare("replay-state-value", current.toString());

        assertThat(next.isNew()).isTrue();
        assertThat(next.schema().version()).isEqualTo(3);
        JobReplayState failed = JobReplayState.newBuilder().setJobId("job-1").setStatus(JobStatus.FAILED)
                .setCompensationPending(true).build();
        GenericRecord readByOld = new GenericDatumReader<GenericRecord>(current, before)
                .read(null, DecoderFactory.get().binaryDecoder(encode(failed), null));
        assertThat(readByOld.get("status").toString()).isEqualTo("FAILED");
        assertThat(readByOld.getSchema().getField("compensationPending")).isNull();
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(old, null);
        new GenericDatumWriter<GenericRecord>(before).write(readByOld, encoder);
        encoder.flush();
        JobReplayState readByNew = new SpecificDatumReader<JobReplayState>(before, current)
                .read(null, DecoderFactory.get().binaryDecoder(old.toByteArray(), null));
        assertThat(readByNew).isEqualTo(JobReplayState.newBuilder(failed).setCompensationPending(false).build());
    }

    private static byte[] encode(JobReplayState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<JobReplayState>(JobReplayState.getClassSchema()).write(state, encoder);
        encoder.flush();
        return bytes.toByteArray();
    }

    @Test
    void aContractOneReaderReadsContractTwoMoneyAsDecimalsAndTimesAsInstants() throws IOException {
        AgentResult written = Records.success();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<AgentResult>(AgentResult.getClassSchema()).write(written, encoder);
        encoder.flush();

        GenericData withConversions = new GenericData();
        withConversions.addLogicalTypeConversion(new Conversions.DecimalConversion());
        withConversions.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        GenericRecord read = new GenericDatumReader<GenericRecord>(AgentResult.getClassSchema(),
                contractOne().get("AgentResult"), withConversions)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));

        GenericRecord cost = (GenericRecord) ((GenericRecord) read.get("execution")).get("cost");
        assertThat((BigDecimal) cost.get("total")).isEqualByComparingTo("0.0033");
        assertThat(read.get("recordTimestamp")).isEqualTo(Instant.parse("2024-01-26T15:30:02Z"));
    }

    @Test
    void aContractTwoReaderReadsContractOneRecordsToTheSameValues() throws IOException {
        Schema one = contractOne().get("AgentResult");
        GenericData withConversions = new GenericData();
        withConversions.addLogicalTypeConversion(new Conversions.DecimalConversion());
        withConversions.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        // contract 2 bytes are contract 1 bytes: write with 2, read as generic 1, write that with 1, read with 2
        ByteArrayOutputStream two = new ByteArrayOutputStream();
        BinaryEncoder twoEncoder = EncoderFactory.get().binaryEncoder(two, null);
        new SpecificDatumWriter<AgentResult>(released("AgentResult")).write(Records.failure(), twoEncoder);
        twoEncoder.flush();
        GenericRecord asOne = new GenericDatumReader<GenericRecord>(released("AgentResult"), one, withConversions)
                .read(null, DecoderFactory.get().binaryDecoder(two.toByteArray(), null));
        new GenericDatumWriter<GenericRecord>(one, withConversions).write(asOne, encoder);
        encoder.flush();

        AgentResult read = new SpecificDatumReader<AgentResult>(one, AgentResult.getClassSchema())
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));

        assertThat(bytes.toByteArray()).isEqualTo(two.toByteArray());
        assertThat(read).isEqualTo(Records.failure());
        ByteBuffer total = read.getExecution().getCost().getTotal();
        assertThat(Money.toDecimal(total)).isEqualByComparingTo("0.0033");
    }
}

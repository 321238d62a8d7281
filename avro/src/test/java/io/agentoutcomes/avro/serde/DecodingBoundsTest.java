package io.agentoutcomes.avro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.Records;
import io.agentoutcomes.avro.Severity;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A few bytes that claim a huge string, array or map are refused before anything is allocated for them: the claim
 * cannot be larger than the bytes left in the record (issue 19 item 7: 36 bytes claiming 2^31 items ended the process).
 */
class DecodingBoundsTest {
    private final String scope = "bounds-test-" + UUID.randomUUID();
    private final AvroSerde<AgentResult> serde = AvroSerde.specific(AgentResult.class)
            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope), false);

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    private static AgentResult.Builder small() {
        return AgentResult.newBuilder().setResultId("r").setAgentId("a").setTaskId("t");
    }

    /**
     * The wire bytes of {@code with}, where they first differ from those of {@code without} (a count or length), replaced
     * by the varint of {@code claimed}.
     */
    private byte[] claiming(AgentResult without, AgentResult with, long claimed) {
        byte[] a = serde.serializer().serialize("agent-results", without);
        byte[] b = serde.serializer().serialize("agent-results", with);
        int at = 0;
        while (a[at] == b[at]) {
            at++;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b, 0, at);
        for (long zigzag = (claimed << 1) ^ (claimed >> 63); ; zigzag >>>= 7) {
            if ((zigzag & ~0x7FL) == 0) {
                out.write((int) zigzag);
                break;
            }
            out.write((int) ((zigzag & 0x7F) | 0x80));
        }
        out.write(b, at + 1, b.length - at - 1);
        return out.toByteArray();
    }

    @Test
    void anArrayClaimingTwoToTheThirtyOneItemsInAFewDozenBytesIsRefusedWithoutAllocatingThem() {
        Finding finding = Finding.newBuilder().setSeverity(Severity.INFO).setFile("f").setMessage("m").setSourceAgent("s").build();
        byte[] bomb = claiming(small().setOutcome(Success.newBuilder().build()).build(),
                small().setOutcome(Success.newBuilder().setFindings(List.of(finding)).build()).build(), Integer.MAX_VALUE - 8L);
        assertThat(bomb.length).isLessThan(64);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims a block of items of 2147483639 with");
    }

    @Test
    void aUnionBranchOutsideTheSchemaIsRefusedThroughTheDirectDecoder() {
        byte[] bomb = claiming(small().setOutcome(Success.newBuilder().build()).build(),
                small().setJobId("j").setOutcome(Success.newBuilder().build()).build(), 5L);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims union branch 5 where the schema has at most 2");
    }

    @Test
    void aNullableFieldClaimingABranchItDoesNotHaveIsRefused() {
        byte[] bomb = claiming(small().setOutcome(Success.newBuilder().build()).build(),
                small().setJobId("j").setOutcome(Success.newBuilder().build()).build(), 2L);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims union branch 2 where the schema has at most 2");
    }

    @Test
    void aNestedRecordsNullableFieldClaimingAThirdBranchIsRefusedNotReadAsNull() {
        // Success.data is ["null", "string"], read by Success's generated customDecode; the outcome's own union has four
        // branches but is read by AgentResultCoder, so it does not widen the bound of the generated reads
        byte[] bomb = claiming(small().setOutcome(Success.newBuilder().build()).build(),
                small().setOutcome(Success.newBuilder().setData("d").build()).build(), 2L);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims union branch 2 where the schema has at most 2");
    }

    @Test
    void theOutcomesFourthBranchIsStillReadThroughTheDirectDecoder() {
        AgentResult skipped = small().setOutcome(Skipped.newBuilder().setReason("not needed").build()).build();

        assertThat(serde.deserializer().deserialize("agent-results", serde.serializer().serialize("agent-results", skipped)))
                .isEqualTo(skipped);
    }

    @Test
    void aStringClaimingMoreBytesThanTheRecordHasLeftIsRefused() {
        byte[] bomb = claiming(small().setTaskId("").setOutcome(Success.newBuilder().build()).build(),
                small().setTaskId("t").setOutcome(Success.newBuilder().build()).build(), 100_000_000L);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims a string of 100000000 with");
    }

    @Test
    void aMapClaimingMoreEntriesThanTheRecordHasBytesIsRefused() {
        AgentResult empty = small().setProviderData(ProviderData.newBuilder().setRawHeaders(Map.of()).build())
                .setOutcome(Success.newBuilder().build()).build();
        AgentResult one = small().setProviderData(ProviderData.newBuilder().setRawHeaders(Map.of("k", "v")).build())
                .setOutcome(Success.newBuilder().build()).build();
        byte[] bomb = claiming(empty, one, 1L << 40);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims a block of items of 1099511627776 with");
    }

    @Test
    void bytesClaimingMoreThanTheRecordHasLeftAreRefused() {
        AgentResult one = Records.success();
        byte[] valid = serde.serializer().serialize("agent-results", one);
        byte[] truncated = Arrays.copyOf(valid, valid.length - 1);

        assertThat(serde.deserializer().deserialize("agent-results", valid)).isEqualTo(one);
        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", truncated))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void aNegativeLengthIsRefused() {
        byte[] bomb = claiming(small().setTaskId("").setOutcome(Success.newBuilder().build()).build(),
                small().setTaskId("t").setOutcome(Success.newBuilder().build()).build(), -5L);

        assertThatThrownBy(() -> serde.deserializer().deserialize("agent-results", bomb))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("claims a string of -5");
    }
}

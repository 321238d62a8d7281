package io.agentoutcomes.topology.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.topology.StageDriver;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The bounds of an attribution, which cut and never refuse, and the headers that fill what a result leaves out. */
class AttributionBoundsTest {
    @Test
    void aValueIsTrimmedRidOfControlCharactersItsSeparatorWrittenSlashAndCutAt128Characters() {
        assertThat(AttributionBounds.value("  acme\u0000 corp|eu \n")).isEqualTo("acme corp/eu");
        assertThat(AttributionBounds.value("x".repeat(129))).isEqualTo("x".repeat(128));
        assertThat(AttributionBounds.value("   ")).isNull();
        assertThat(AttributionBounds.value(null)).isNull();
    }

    @Test
    void aCutNeverSplitsACharacterOutsideTheBasicPlane() {
        String value = AttributionBounds.value("x".repeat(127) + "\uD83D\uDE00");
        assertThat(value).isEqualTo("x".repeat(127));
    }

    @Test
    void atMostSixteenDistinctTagsAreKeptInTheOrderGiven() {
        List<String> tags = IntStream.range(0, 20).mapToObj(i -> "t" + i).toList();
        assertThat(AttributionBounds.tags(tags)).hasSize(16).startsWith("t0", "t1").endsWith("t15");
        assertThat(AttributionBounds.tags(" b, a ,, b ,")).containsExactly("b", "a");
    }

    @Test
    void theHeadersStateAnAttributionOnlyWhenOneOfThemIsThere() {
        assertThat(AttributeResults.fromHeaders(new RecordHeaders())).isNull();
        assertThat(AttributeResults.fromHeaders(StageDriver.headers("tenant-id", "acme", "team", "search", "user-id", "u-1",
                "tags", "batch,eu")))
                .isEqualTo(new Attribution("acme", "search", "u-1", List.of("batch", "eu")));
    }
}

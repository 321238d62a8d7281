package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/** The provenance an accepted record is stamped with, written without a String per record. */
class InputHeadersTest {
    private final InputHeaders headers = new InputHeaders();

    private static RecordMetadata at(String topic, int partition, long offset) {
        return new RecordMetadata() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public int partition() {
                return partition;
            }

            @Override
            public long offset() {
                return offset;
            }
        };
    }

    private static List<String> text(Headers headers) {
        List<String> all = new ArrayList<>();
        for (Header header : headers) {
            all.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
        }
        return all;
    }

    @Test
    void offsetsAreWrittenAsTheirDecimalDigits() {
        for (long offset : new long[] {0, 7, 9, 10, 99, 100, 1_234_567_890_123L, Long.MAX_VALUE, -1}) {
            assertThat(new String(InputHeaders.decimal(offset), StandardCharsets.US_ASCII)).isEqualTo(Long.toString(offset));
        }
    }

    @Test
    void aProducersOwnOriginHeadersAreReplacedByWhereTheRecordWasReadAndTheOthersKeptInOrder() {
        Headers input = new RecordHeaders();
        input.add(HeaderNames.ORIGIN_OFFSET, "1".getBytes(StandardCharsets.UTF_8));
        input.add("traceparent", "00-ab-cd-01".getBytes(StandardCharsets.UTF_8));
        input.add(HeaderNames.ORIGIN_TOPIC, "forged".getBytes(StandardCharsets.UTF_8));
        input.add("origin-story", "kept".getBytes(StandardCharsets.UTF_8));
        input.add(HeaderNames.ORIGIN_PARTITION, "9".getBytes(StandardCharsets.UTF_8));

        assertThat(text(headers.accept(input, at("agent-results", 3, 120)))).containsExactly("traceparent=00-ab-cd-01",
                "origin-story=kept", "origin-topic=agent-results", "origin-partition=3", "origin-offset=120");
    }

    @Test
    void aCredentialsNameIsRedactedWhereverItComesAmongTheNamesOfTheRecordsBefore() {
        Headers first = new RecordHeaders();
        first.add("traceparent", "00-ab-cd-01".getBytes(StandardCharsets.UTF_8));
        first.add("team", "search".getBytes(StandardCharsets.UTF_8));
        assertThat(text(headers.accept(first, null))).containsExactly("traceparent=00-ab-cd-01", "team=search");

        Headers second = new RecordHeaders();
        second.add("Authorization", "opaque".getBytes(StandardCharsets.UTF_8));
        second.add("traceparent", "00-ab-cd-02".getBytes(StandardCharsets.UTF_8));
        assertThat(text(headers.accept(second, null))).containsExactly("Authorization=" + CredentialScrubber.REDACTED,
                "traceparent=00-ab-cd-02");

        Headers third = new RecordHeaders();
        third.add("Authorization", "opaque-too".getBytes(StandardCharsets.UTF_8));
        third.add("team", "search".getBytes(StandardCharsets.UTF_8));
        assertThat(text(headers.accept(third, null))).containsExactly("Authorization=" + CredentialScrubber.REDACTED,
                "team=search");

        Headers fourth = new RecordHeaders();
        fourth.add("team", "search".getBytes(StandardCharsets.UTF_8));
        fourth.add("Authorization", "opaque".getBytes(StandardCharsets.UTF_8));
        assertThat(text(headers.accept(fourth, null))).containsExactly("team=search",
                "Authorization=" + CredentialScrubber.REDACTED);
    }

    @Test
    void eachRecordOfAPartitionAndOfTheNextIsStampedWithItsOwnPosition() {
        assertThat(text(headers.accept(new RecordHeaders(), at("agent-results", 0, 5))))
                .containsExactly("origin-topic=agent-results", "origin-partition=0", "origin-offset=5");
        assertThat(text(headers.accept(new RecordHeaders(), at("agent-results", 0, 6))))
                .containsExactly("origin-topic=agent-results", "origin-partition=0", "origin-offset=6");
        assertThat(text(headers.accept(new RecordHeaders(), at("node-finished", 0, 1))))
                .containsExactly("origin-topic=node-finished", "origin-partition=0", "origin-offset=1");
        assertThat(text(headers.accept(new RecordHeaders(), at("node-finished", 12, 0))))
                .containsExactly("origin-topic=node-finished", "origin-partition=12", "origin-offset=0");
        assertThat(text(headers.accept(null, null))).isEmpty();
    }
}

package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Credentials in provider_data.raw_headers never reach Kafka: not in the canonical record, not in rejected-input. */
class RedactionTest {
    private static final String RAW_HEADERS = "{\"Authorization\":\"Bearer sk-secret-1\",\"x-api-key\":\"sk-secret-2\","
            + "\"cookie\":\"session=sk-secret-3\",\"proxy-authorization\":\"Basic sk-secret-4\","
            + "\"x-auth-token\":\"sk-secret-5\",\"openai-organization\":\"sk-secret-6\","
            + "\"x-ratelimit-remaining-requests-minute\":\"10\",\"x-ratelimit-remaining-tokens-day\":\"500000\","
            + "\"anthropic-ratelimit-tokens-reset\":\"2026-03-01T12:01:00Z\",\"retry-after\":\"30\",\"x-request-id\":\"req-1\"}";

    private final IngestDriver pipeline = new IngestDriver();

    @AfterEach
    void close() {
        pipeline.close();
    }

    @Test
    void credentialHeadersAppearInNoOutputTopic() {
        pipeline.agentResult("task-1", "{\"content\":\"ok\",\"provider_data\":{\"provider\":\"openai\",\"raw_headers\":"
                + RAW_HEADERS + "}}", headers("agent-id", "a"));
        pipeline.agentResult("task-2", "{\"content\":\"bad\",\"usage\":{\"input_tokens\":-1},\"provider_data\":{"
                + "\"provider\":\"openai\",\"raw_headers\":" + RAW_HEADERS + "}}", headers("agent-id", "a"));

        List<byte[]> everything = new ArrayList<>();
        List<TestRecord<byte[], byte[]>> canonical = readRaw(pipeline.topics.agentResults.name());
        List<TestRecord<byte[], byte[]>> rejected = readRaw(pipeline.topics.rejectedInput.name());
        for (TestRecord<byte[], byte[]> record : concat(canonical, rejected)) {
            everything.add(record.value());
            for (Header header : record.headers()) {
                everything.add(header.value());
            }
        }
        assertThat(everything).allSatisfy(bytes ->
                assertThat(new String(bytes, StandardCharsets.UTF_8)).doesNotContain("sk-secret"));

        AgentResult result = pipeline.topics.agentResults.valueSerde().deserializer()
                .deserialize(pipeline.topics.agentResults.name(), canonical.get(0).value());
        assertThat(result.getProviderData().getRawHeaders()).isEqualTo(Map.of(
                "x-ratelimit-remaining-requests-minute", "10", "x-ratelimit-remaining-tokens-day", "500000",
                "anthropic-ratelimit-tokens-reset", "2026-03-01T12:01:00Z", "retry-after", "30", "x-request-id", "req-1"));
        assertThat(rejected).singleElement().satisfies(record -> {
            assertThat(BadInputTest.headersOf(record)).containsEntry(RejectedInput.REDACTED, "true")
                    .containsEntry(RejectedInput.MESSAGE, "usage.input_tokens is -1: must not be negative");
            assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("{\"content\":\"bad\",\"usage\":"
                    + "{\"input_tokens\":-1},\"provider_data\":{\"provider\":\"openai\",\"raw_headers\":{"
                    + "\"x-ratelimit-remaining-requests-minute\":\"10\",\"x-ratelimit-remaining-tokens-day\":\"500000\","
                    + "\"anthropic-ratelimit-tokens-reset\":\"2026-03-01T12:01:00Z\",\"retry-after\":\"30\","
                    + "\"x-request-id\":\"req-1\"}}}");
        });
    }

    @Test
    void theRedactorKeepsRateLimitAndRequestIdHeadersOnly() {
        assertThat(RawHeaderRedactor.keeps("X-RateLimit-Remaining-Tokens")).isTrue();
        assertThat(RawHeaderRedactor.keeps("x-ratelimit-reset-requests")).isTrue();
        assertThat(RawHeaderRedactor.keeps("anthropic-ratelimit-requests-remaining")).isTrue();
        assertThat(RawHeaderRedactor.keeps("retry-after-ms")).isTrue();
        assertThat(RawHeaderRedactor.keeps("request-id")).isTrue();
        assertThat(RawHeaderRedactor.keeps("cf-request-id")).isTrue();
        assertThat(RawHeaderRedactor.keeps("authorization")).isFalse();
        assertThat(RawHeaderRedactor.keeps("set-cookie")).isFalse();
        assertThat(RawHeaderRedactor.keeps("x-ratelimit-api-key")).isFalse();
        assertThat(RawHeaderRedactor.keeps("x-session-token")).isFalse();
        assertThat(RawHeaderRedactor.keeps("content-type")).isFalse();
    }

    private List<TestRecord<byte[], byte[]>> readRaw(String topic) {
        return pipeline.driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .readRecordsToList();
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}

package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Spans made by the OpenTelemetry Java SDK, marshaled as the Collector's Kafka exporter writes them, in both encodings,
 * through the service on a real broker: every outcome, retry and dead letter counted read_committed against the spans
 * sent, and /analytics and /metrics against the spans' own token counts, to the last token; spans without cost priced.
 */
class OtlpOnBrokerTest extends ServiceOnTestBroker {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final List<SpanData> finished = new ArrayList<>();

    /** One request of the SDK's spans, as otlp_proto or otlp_json, each task id ending in the encoding's name. */
    private byte[] request(boolean json) throws Exception {
        String suffix = json ? "-json" : "-proto";
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "support-bot")))
                .addSpanProcessor(SimpleSpanProcessor.create(new Collecting())).build();
        Tracer tracer = provider.get("otlp-on-broker");
        span(tracer, "ok" + suffix, "gpt-4o-mini-2024-07-18", 1000, 200, 100, null, 0);
        span(tracer, "ok2" + suffix, "gpt-4o-mini", 500, 0, 50, null, 0);
        span(tracer, "limited" + suffix, "gpt-4o-mini", 0, 0, 0, "openai.RateLimitError", 429);
        span(tracer, "denied" + suffix, "gpt-4o-mini", 0, 0, 0, "openai.AuthenticationError", 401);
        tracer.spanBuilder("GET /kb").setSpanKind(SpanKind.CLIENT).setStartTimestamp(T0.toEpochMilli(), TimeUnit.MILLISECONDS)
                .startSpan().end(T0.toEpochMilli() + 5, TimeUnit.MILLISECONDS);
        provider.close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceRequestMarshaler marshaler = TraceRequestMarshaler.create(List.copyOf(finished));
        if (json) {
            marshaler.writeJsonTo(out);
        } else {
            marshaler.writeBinaryTo(out);
        }
        finished.clear();
        return out.toByteArray();
    }

    private static void span(Tracer tracer, String task, String model, long input, long cacheRead, long output,
                             String errorType, long status) {
        Span span = tracer.spanBuilder("chat " + model).setSpanKind(SpanKind.CLIENT).setNoParent()
                .setStartTimestamp(T0.toEpochMilli(), TimeUnit.MILLISECONDS).startSpan()
                .setAttribute("gen_ai.operation.name", "chat").setAttribute("gen_ai.provider.name", "openai")
                .setAttribute("gen_ai.request.model", model).setAttribute("agent_outcomes.task.id", task);
        if (input > 0) {
            span.setAttribute("gen_ai.usage.input_tokens", input).setAttribute("gen_ai.usage.output_tokens", output);
        }
        if (cacheRead > 0) {
            span.setAttribute("gen_ai.usage.cache_read.input_tokens", cacheRead);
        }
        if (errorType != null) {
            span.setAttribute("error.type", errorType).setAttribute("http.response.status_code", status)
                    .setStatus(StatusCode.ERROR, errorType);
        }
        span.end(T0.toEpochMilli() + 300, TimeUnit.MILLISECONDS);
    }

    private static Map<String, JsonNode> totalsByModel(AgentOutcomesService service) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(service.httpUrl() + "/analytics?window=total&by=model")).build(), HttpResponse.BodyHandlers.ofString());
        Map<String, JsonNode> groups = new HashMap<>();
        if (response.statusCode() == 200) {
            JSON.readTree(response.body()).get("series").forEach(s -> groups.put(s.get("name").asText(), s.at("/points/0")));
        }
        return groups;
    }

    private static long completions(Map<String, JsonNode> totals) {
        return totals.values().stream().mapToLong(t -> {
            long sum = 0;
            for (JsonNode count : t.get("completions")) {
                sum += count.asLong();
            }
            return sum;
        }).sum();
    }

    /** Every record on the prefix's retry-delay topics, read_committed, once {@code expected} have come. */
    private static List<ConsumerRecord<String, byte[]>> retries(String prefix, int expected) throws Exception {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "retries-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500");
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(Pattern.compile(Pattern.quote(prefix + "retry-delay-") + ".*"));
            waitForCondition(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            }, 30_000, () -> "retries: " + records.size() + " of " + expected);
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        return records;
    }

    @Test
    void sdkSpansInBothEncodingsAreCountedToTheLastTokenRetriedStoppedAndPriced() throws Exception {
        AppConfig config = config("otlp", Map.of("analytics.flush.interval.ms", "200",
                "input.otlp.topic", "otlp-" + UUID.randomUUID().toString().substring(0, 8)));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(), new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(config.otlpSpansTopic(), null, T0.toEpochMilli(), null, request(false))).get();
                producer.send(new ProducerRecord<>(config.otlpSpansTopic(), null, T0.toEpochMilli(), null, request(true))).get();
            }
            String prefix = config.topicPrefix();

            List<String> outcomes = read(prefix + "outcomes-classified", 8, new StringDeserializer(), new ByteArrayDeserializer()).stream()
                    .map(ConsumerRecord::key).toList();
            assertThat(outcomes).containsExactlyInAnyOrder("ok-proto", "ok2-proto", "limited-proto", "denied-proto",
                    "ok-json", "ok2-json", "limited-json", "denied-json");
            assertThat(retries(prefix, 2)).extracting(ConsumerRecord::key).containsExactlyInAnyOrder("limited-proto", "limited-json");
            assertThat(read(prefix + "dead-letter", 2, new StringDeserializer(), new ByteArrayDeserializer())).extracting(ConsumerRecord::key)
                    .containsExactlyInAnyOrder("denied-proto", "denied-json");

            AtomicReference<Map<String, JsonNode>> totals = new AtomicReference<>(Map.of());
            waitForCondition(() -> {
                totals.set(totalsByModel(service));
                return completions(totals.get()) == 8;
            }, 60_000, () -> "totals by model: " + totals.get());
            JsonNode dated = totals.get().get("gpt-4o-mini-2024-07-18");
            JsonNode undated = totals.get().get("gpt-4o-mini");
            // OpenAI counts cached tokens inside its input, as the conventions do: 2 x (1000 - 200) uncached, 2 x 200 cached
            assertThat(dated.get("inputTokens").asLong()).isEqualTo(1600);
            assertThat(dated.get("cacheReadTokens").asLong()).isEqualTo(400);
            assertThat(dated.get("outputTokens").asLong()).isEqualTo(200);
            assertThat(undated.get("inputTokens").asLong()).isEqualTo(1000);
            assertThat(undated.get("outputTokens").asLong()).isEqualTo(100);
            assertThat(undated.get("retries").asLong()).isEqualTo(2);
            // priced from the shipped table (input 0.15, cached input 0.075, output 0.6 USD per million):
            // 2 x (800 x 0.15 + 200 x 0.075 + 100 x 0.6) and 2 x (500 x 0.15 + 50 x 0.6) per million
            assertThat(new BigDecimal(dated.get("costTotal").asText())).isEqualByComparingTo("0.00039");
            assertThat(new BigDecimal(undated.get("costTotal").asText())).isEqualByComparingTo("0.00021");

            assertThat(scrapeSum(service, "agent_outcomes_tokens_total", "")).isEqualTo(3300.0);
            assertThat(scrapeSum(service, "agent_outcomes_otlp_spans_skipped_total", "")).isEqualTo(2.0);
            assertThat(scrapeSum(service, "agent_outcomes_rejected_input_total", "")).isEqualTo(0.0);
        }
    }

    private final class Collecting implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            finished.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}

package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.client.testing.TestBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service on a real broker in the test JVM, with its embedded schema registry: the broker of each test class,
 * a data directory per test, and the reading, scraping and waiting the service's tests share.
 */
abstract class ServiceOnTestBroker {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    /** A W3C trace context per task: version 00, a trace id ending in the task number, sampled. */
    static String traceparent(int task) {
        return String.format("00-4bf92f3577b34da6a3ce929d0e0e%04d-00f067aa0ba902b7-01", task);
    }

    static Map<String, String> headers(ConsumerRecord<?, ?> record) {
        Map<String, String> all = new HashMap<>();
        record.headers().forEach(h -> all.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
        return all;
    }

    static ProducerRecord<String, String> json(String topic, String key, long time, String value, String... headers) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, null, time, key, value);
        for (int i = 0; i < headers.length; i += 2) {
            record.headers().add(headers[i], headers[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    AppConfig config(String name) {
        return config(name, Map.of());
    }

    /** A service on the test broker with its own topic prefix and application id; {@code extra} adds or overrides settings. */
    AppConfig config(String name, Map<String, String> extra) {
        String prefix = name + "-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Map<String, String> settings = new HashMap<>(Map.of(ConfigLoader.APPLICATION_ID, prefix + "app",
                ConfigLoader.TOPIC_PREFIX, prefix));
        settings.putAll(extra);
        return TestServiceConfig.on(kafka, dataDir, 2, settings);
    }

    static SchemaRegistryClient restClient(String url) {
        return new RestSchemaRegistryClient(List.of(URI.create(url)), Optional.empty(), Duration.ofSeconds(5), 1,
                Duration.ofMillis(10));
    }

    static Map<String, Object> producerConfig() {
        return Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all");
    }

    static <V> List<ConsumerRecord<String, V>> readAll(String topic, int expected, Deserializer<V> values)
            throws InterruptedException {
        return read(topic, expected, new StringDeserializer(), values);
    }

    static <K, V> List<ConsumerRecord<K, V>> read(String topic, int expected, Deserializer<K> keys,
                                                 Deserializer<V> values) throws InterruptedException {
        return read(kafka.bootstrapServers(), topic, expected, keys, values);
    }

    static <K, V> List<ConsumerRecord<K, V>> read(String bootstrapServers, String topic, int expected,
                                                 Deserializer<K> keys, Deserializer<V> values) throws InterruptedException {
        Map<String, Object> config = Map.of("bootstrap.servers", bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(config, keys, values)) {
            consumer.subscribe(List.of(topic));
            waitForCondition(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            }, 30_000, () -> "records on " + topic + ": " + records.size() + " of " + expected);
        }
        assertThat(records).as("records on %s", topic).hasSize(expected);
        return records;
    }

    static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expected, ByteArrayDeserializer values)
            throws InterruptedException {
        return read(topic, expected, new ByteArrayDeserializer(), values);
    }

    /** Scrapes /metrics, parses the Prometheus text format, and sums the samples of a metric whose labels contain the filter. */
    static double scrapeSum(AgentOutcomesService service, String metric, String labelFilter) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(service.httpUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})?\\s+(\\S+)$");
        double sum = 0;
        int samples = 0;
        for (String line : scrape.body().split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher matcher = sample.matcher(line);
            assertThat(matcher.matches()).as("a Prometheus sample line: %s", line).isTrue();
            if (matcher.group(1).equals(metric) && (matcher.group(2) == null ? "" : matcher.group(2)).contains(labelFilter)) {
                sum += Double.parseDouble(matcher.group(3));
                samples++;
            }
        }
        assertThat(samples).as("samples of %s", metric).isPositive();
        return sum;
    }

    /**
     * Waits up to 60 s for /health to answer 200 with Kafka Streams RUNNING; every answer before it is 503 DOWN, or 200
     * UP while a rebalance after the first assignment runs (an instance that has run stays ready through one).
     */
    static void awaitHealthy(AgentOutcomesService service) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(service.httpUrl() + "/health")).build();
        List<HttpResponse<String>> answers = new ArrayList<>();
        waitForCondition(() -> {
            answers.add(http.send(request, HttpResponse.BodyHandlers.ofString()));
            HttpResponse<String> last = answers.get(answers.size() - 1);
            return last.statusCode() == 200 && last.body().contains("\"RUNNING\"");
        }, 60_000, () -> "/health 200 RUNNING within 60 s; " + answers.size() + " answers");
        assertThat(answers.subList(0, answers.size() - 1)).allSatisfy(response -> assertThat(
                response.statusCode() == 503 && response.body().contains("\"status\":\"DOWN\"")
                        || response.statusCode() == 200 && response.body().equals("{\"status\":\"UP\",\"streams\":\"REBALANCING\"}"))
                .as(response.statusCode() + " " + response.body()).isTrue());
        HttpResponse<String> response = answers.get(answers.size() - 1);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"status\":\"UP\",\"streams\":\"RUNNING\"}");
    }
}

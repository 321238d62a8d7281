package io.agentoutcomes.app.config;

import io.agentoutcomes.app.metrics.KafkaMetricsDetail;
import io.agentoutcomes.app.metrics.MetricsSettings;
import io.agentoutcomes.app.metrics.OtlpSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** What {@code GET /metrics} exports and the OTLP push (docs/operations.md, "Metrics"), a group of the service's own settings. */
public final class MetricsConfig {
    public static final String METRICS_KAFKA_DETAIL = "metrics.kafka.detail";
    public static final String METRICS_STAGE_TIMINGS_ENABLED = "metrics.stage.timings.enabled";
    public static final String METRICS_OTLP_URL = "metrics.otlp.url";
    public static final String METRICS_OTLP_STEP_MS = "metrics.otlp.step.ms";
    public static final String METRICS_OTLP_HEADERS = "metrics.otlp.headers";
    public static final String METRICS_OTLP_RESOURCE_ATTRIBUTES = "metrics.otlp.resource.attributes";

    /** A list's bound: more headers or attributes than anyone sends is a mistake. */
    private static final int MAX_PAIRS = 32;

    private MetricsConfig() {
    }

    static Declarations declare(Declarations declarations) {
        return declarations.group(Headings.METRICS)
                .define(METRICS_KAFKA_DETAIL, Type.STRING, KafkaMetricsDetail.SUMMARY.value(),
                        Check.oneOf(Arrays.stream(KafkaMetricsDetail.values()).map(KafkaMetricsDetail::value).toList()),
                        "How finely /metrics exports Kafka Streams' metrics. summary: Kafka Streams' own one series per stream thread and topic, its clients' one per client and broker, a metric's series across tasks, stores, processor nodes, partitions (and the clients' topics) folded into one (sum; largest for -max; smallest for -min; mean for -avg); full: every series Kafka keeps, several times the size.")
                .define(METRICS_STAGE_TIMINGS_ENABLED, Type.BOOLEAN, false, null,
                        "Whether every processor node of the pipeline is timed (Kafka Streams' processor.wrapper.class) and exported as agent_outcomes_stage_process_seconds{node}: calls and their own time, two clock reads per node and record, about 1-1.5 µs of stream-thread CPU a record as measured, so off by default (docs/operations.md). Off: the processors are not wrapped and the meter is absent. A processor.wrapper.class of your own replaces it.")
                .define(METRICS_OTLP_URL, Type.STRING, null, Check.parsedBy("an http or https URL", MetricsConfig::url),
                        "The OTLP/HTTP metrics endpoint the GenAI conventions' metrics (gen_ai.client.token.usage, gen_ai.client.operation.duration) are pushed to, e.g. http://collector:4318/v1/metrics (docs/analytics.md). Not set: no push; /metrics has them either way.")
                .define(METRICS_OTLP_STEP_MS, Type.LONG, 60_000L, Check.between(1_000, 86_400_000),
                        "How often the OTLP push sends, milliseconds; each push reads the totals afresh as a scrape of /metrics does.")
                .define(METRICS_OTLP_HEADERS, Type.PASSWORD, null,
                        Check.parsedBy("name=value pairs separated by commas", v -> pairs(v == null ? null : ((Password) v).value())),
                        "Headers sent with every OTLP push, name=value separated by commas (e.g. an API key: api-key=...). Secret: never shown or logged.")
                .define(METRICS_OTLP_RESOURCE_ATTRIBUTES, Type.STRING, "service.name=agent-outcomes",
                        Check.parsedBy("name=value pairs separated by commas", v -> pairs((String) v)),
                        "The OTLP resource's attributes, name=value separated by commas (service.name, service.namespace, deployment.environment.name, ...).");
    }

    static MetricsSettings parse(ParsedConfig config) {
        KafkaMetricsDetail detail = KafkaMetricsDetail.of(config.getString(METRICS_KAFKA_DETAIL).trim());
        boolean stageTimings = config.getBoolean(METRICS_STAGE_TIMINGS_ENABLED);
        String url = config.getString(METRICS_OTLP_URL);
        if (url == null || url.isBlank()) {
            return new MetricsSettings(detail, stageTimings, Optional.empty());
        }
        Password headers = config.getPassword(METRICS_OTLP_HEADERS);
        return new MetricsSettings(detail, stageTimings, Optional.of(new OtlpSettings(url(url), Duration.ofMillis(config.getLong(METRICS_OTLP_STEP_MS)),
                headers == null ? Map.of() : pairs(headers.value()), pairs(config.getString(METRICS_OTLP_RESOURCE_ATTRIBUTES)))));
    }

    /** An http or https URL with a host; the value itself is not repeated in the error (it may carry a credential). */
    private static String url(Object value) {
        String url = value == null ? "" : value.toString().trim();
        if (url.isEmpty()) {
            return url;
        }
        try {
            URI uri = new URI(url);
            if (uri.getUserInfo() != null) {
                throw new IllegalArgumentException("credentials belong in " + METRICS_OTLP_HEADERS + ", not in the URL");
            }
            if (uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return url;
            }
        } catch (java.net.URISyntaxException e) {
            // refused below
        }
        throw new IllegalArgumentException("not an http:// or https:// URL with a host");
    }

    /**
     * {@code name=value} pairs separated by commas (a value may hold '='); blank: none. The refusal names the position,
     * never the text: these may be secret headers.
     */
    static Map<String, String> pairs(String text) {
        Map<String, String> pairs = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return pairs;
        }
        String[] items = text.split(",");
        if (items.length > MAX_PAIRS) {
            throw new IllegalArgumentException("more than " + MAX_PAIRS + " pairs");
        }
        for (int i = 0; i < items.length; i++) {
            int equals = items[i].indexOf('=');
            if (equals <= 0 || items[i].substring(0, equals).isBlank()) {
                throw new IllegalArgumentException("pair " + (i + 1) + " is not name=value");
            }
            pairs.put(items[i].substring(0, equals).trim(), items[i].substring(equals + 1).trim());
        }
        return pairs;
    }
}

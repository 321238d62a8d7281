package io.agentoutcomes.client;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells an orchestrator when a provider's circuit changes, so it can switch provider before its calls fail: reads
 * every partition of {@code provider-health} from the start ({@code read_committed}, no consumer group: every
 * listener sees every change), keeps each scope's latest state, and calls {@code onChange} for each change in the
 * order the pipeline made them. {@link #state} answers from what it has read: a scope it has heard nothing of is
 * {@link CircuitState#CLOSED}. {@link #start()} reads on a thread of its own until {@link #close()}.
 */
public final class ProviderHealthListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProviderHealthListener.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final Deserializer<ProviderHealth> values;
    private final String topic;
    private final Consumer<ProviderHealth> onChange;
    /** Each scope's latest change, by provider and model ("" for a provider's scope). */
    private final Map<List<String>, ProviderHealth> latest = new ConcurrentHashMap<>();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Thread thread;

    private ProviderHealthListener(Map<String, ?> settings, Consumer<ProviderHealth> onChange) {
        this.onChange = Objects.requireNonNull(onChange, "onChange");
        Object prefix = settings.get(OutcomePublisher.TOPIC_PREFIX);
        this.topic = new PipelineTopics(prefix == null ? "" : prefix.toString()).providerHealth();
        Map<String, Object> config = new HashMap<>(settings);
        config.remove(OutcomePublisher.TOPIC_PREFIX);
        config.keySet().removeIf(k -> k.startsWith("schema.registry.") || k.startsWith("basic.auth.") || k.startsWith("bearer.auth.")
                || k.startsWith("specific.avro.") || k.startsWith("auto.register.") || k.startsWith("use.latest.")
                || k.startsWith("latest.cache."));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.values = AvroSerde.specific(ProviderHealth.class).configured(settings, false).deserializer();
    }

    /**
     * A listener with these settings (a Kafka consumer's, plus {@code schema.registry.url} and {@code topic.prefix})
     * calling {@code onChange} for every change of a circuit, the past ones first.
     */
    public static ProviderHealthListener create(Map<String, ?> settings, Consumer<ProviderHealth> onChange) {
        Objects.requireNonNull(settings.get(AvroSerdeConfig.SCHEMA_REGISTRY_URL), AvroSerdeConfig.SCHEMA_REGISTRY_URL);
        return new ProviderHealthListener(settings, onChange);
    }

    /** Runs {@link #run()} on a daemon thread of its own. */
    public ProviderHealthListener start() {
        Thread t = new Thread(this::run, "provider-health-listener");
        t.setDaemon(true);
        thread = t;
        t.start();
        return this;
    }

    /** Reads until {@link #close()}: every change since the topic began, then each as it comes. */
    public void run() {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    ProviderHealth change = values.deserialize(topic, record.headers(), record.value());
                    latest.put(scope(change.getProvider(), change.getModel()), change);
                    try {
                        onChange.accept(change);
                    } catch (RuntimeException e) {
                        LOG.warn("the provider health handler threw on {} {}: {}", change.getProvider(), change.getState(), e.toString());
                    }
                }
                if (caughtUp.getCount() > 0 && partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                    caughtUp.countDown();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            consumer.close();
        }
    }

    /** Waits until the changes that were on the topic when the listener started have been read. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A scope's circuit as last heard: {@code model} null for a scope of the provider alone. Names are compared as
     * the pipeline compares them: trimmed, in lower case.
     */
    public CircuitState state(String provider, String model) {
        ProviderHealth change = latest.get(scope(provider, model));
        return change == null ? CircuitState.CLOSED : change.getState();
    }

    private static List<String> scope(String provider, String model) {
        return List.of(provider.trim().toLowerCase(Locale.ROOT), model == null ? "" : model.trim().toLowerCase(Locale.ROOT));
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        Thread t = thread;
        if (t != null) {
            t.join(10_000);
        }
    }
}

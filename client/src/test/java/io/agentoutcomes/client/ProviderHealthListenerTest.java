package io.agentoutcomes.client;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The provider health listener against a real broker, with changes written as the pipeline's gate writes them. */
class ProviderHealthListenerTest {
    private static final String REGISTRY = "mock://provider-health-listener-test";
    private static final String PREFIX = "health.";
    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void hearsThePastChangesFirstThenEachNewOneAndAnswersAScopesLatestState() throws Exception {
        broker.createTopics(2, PREFIX + TopicNames.PROVIDER_HEALTH);
        produce(change("flaky", "m1", CircuitState.CLOSED, CircuitState.OPEN, 1_000),
                change("other", null, CircuitState.CLOSED, CircuitState.OPEN, 1_500));
        List<String> heard = new CopyOnWriteArrayList<>();
        Map<String, Object> settings = Map.of("bootstrap.servers", broker.bootstrapServers(),
                AvroSerdeConfig.SCHEMA_REGISTRY_URL, REGISTRY, OutcomePublisher.TOPIC_PREFIX, PREFIX);
        try (ProviderHealthListener listener = ProviderHealthListener.create(settings,
                change -> heard.add(change.getProvider() + " " + change.getState())).start()) {
            assertThat(listener.awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            assertThat(heard).containsExactlyInAnyOrder("flaky OPEN", "other OPEN");
            assertThat(listener.state("Flaky", "M1")).isEqualTo(CircuitState.OPEN);
            assertThat(listener.state("other", null)).isEqualTo(CircuitState.OPEN);
            assertThat(listener.state("unheard", "m1")).isEqualTo(CircuitState.CLOSED);

            produce(change("flaky", "m1", CircuitState.OPEN, CircuitState.HALF_OPEN, 31_000),
                    change("flaky", "m1", CircuitState.HALF_OPEN, CircuitState.CLOSED, 33_000));
            waitForCondition(() -> heard.size() == 4, 20_000, () -> "heard " + heard);
            assertThat(heard.subList(2, 4)).containsExactly("flaky HALF_OPEN", "flaky CLOSED");
            assertThat(listener.state("flaky", "m1")).isEqualTo(CircuitState.CLOSED);
        }
    }

    private static ProviderHealth change(String provider, String model, CircuitState from, CircuitState to, long at) {
        return ProviderHealth.newBuilder().setProvider(provider).setModel(model).setPrevious(from).setState(to).setAt(at)
                .setReason("test").setOutcomes(40).setFailures(40).setWindowMs(60_000).setHeldRetries(3).build();
    }

    private static void produce(ProviderHealth... changes) throws Exception {
        String topic = PREFIX + TopicNames.PROVIDER_HEALTH;
        Serializer<ProviderHealth> serializer = AvroSerde.specific(ProviderHealth.class)
                .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, REGISTRY), false).serializer();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer())) {
            for (ProviderHealth change : changes) {
                String key = change.getModel() == null ? change.getProvider() : change.getProvider() + '\u001f' + change.getModel();
                producer.send(new ProducerRecord<>(topic, key, serializer.serialize(topic, change))).get();
            }
        }
    }
}

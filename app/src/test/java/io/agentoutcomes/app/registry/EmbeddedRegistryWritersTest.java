package io.agentoutcomes.app.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.client.testing.TestBroker;
import io.agentoutcomes.topology.topic.Topics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Several embedded registries sharing one schemas topic, as every instance of a scaled-out service runs one. */
class EmbeddedRegistryWritersTest {
    private static final int ROUNDS = 20;

    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    private final List<Registry> started = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private String topic;

    @BeforeEach
    void createSchemasTopic() {
        topic = "_schemas-" + UUID.randomUUID().toString().substring(0, 8);
        TopicProvisioner.ensure(clientConfig(), List.of(new TopicProvisioner.TopicSpec(topic, 1, Topics.Cleanup.COMPACT)),
                (short) 1);
    }

    @AfterEach
    void closeRegistries() throws Exception {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
    }

    @Test
    void twoRegistriesRegisteringAtOnceNeverGiveOneIdToDifferentSchemas() throws Exception {
        String first = startRegistry().url();
        String second = startRegistry().url();
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Map<String, Integer>> viaFirst = threads.submit(() -> registerRounds(first, "first", together));
            Future<Map<String, Integer>> viaSecond = threads.submit(() -> registerRounds(second, "second", together));
            Map<String, Integer> idsViaFirst = viaFirst.get();
            Map<String, Integer> idsViaSecond = viaSecond.get();

            Map<Integer, Set<String>> schemasById = new HashMap<>();
            idsViaFirst.forEach((schema, id) -> schemasById.computeIfAbsent(id, i -> new HashSet<>()).add(schema));
            idsViaSecond.forEach((schema, id) -> schemasById.computeIfAbsent(id, i -> new HashSet<>()).add(schema));
            assertThat(schemasById).allSatisfy((id, schemas) -> assertThat(schemas).as("schemas given id %d", id).hasSize(1));
            for (int round = 0; round < ROUNDS; round++) {
                String shared = schema("Shared" + round);
                assertThat(idsViaSecond.get(shared)).as("id of the shared schema of round %d", round)
                        .isEqualTo(idsViaFirst.get(shared));
            }
            for (String url : List.of(first, second)) {
                SchemaRegistryClient reader = client(url);
                schemasById.forEach((id, schemas) -> assertThat(reader.schemaById(id)).isEqualTo(schemas.iterator().next()));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aWriteSentToARegistryThatIsNotTheWriterReachesTheWriterAndIsReadBackWhereItWasSent() throws Exception {
        Registry first = startRegistry();
        Registry second = startRegistry();

        int id = client(first.url()).register("orders-value", schema("Order"));
        HttpResponse<String> compatibility = http.send(HttpRequest.newBuilder(URI.create(first.url() + "/config/orders-value"))
                .header("Content-Type", RestSchemaRegistryClient.CONTENT_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"FULL\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(client(second.url()).schemaById(id)).isEqualTo(schema("Order"));
        assertThat(client(first.url()).latest("orders-value").id()).isEqualTo(id);
        assertThat(compatibility.body()).isEqualTo("{\"compatibility\":\"FULL\"}");
        assertThat(second.store().state().subjectCompatibility("orders-value")).contains(CompatibilityLevel.FULL);
        assertThat(first.store().state().subjectCompatibility("orders-value")).contains(CompatibilityLevel.FULL);
        assertThat(second.store().writerUrl()).as("the last registry started writes").contains(second.url());
        assertThat(first.store().writerUrl()).contains(second.url());
    }

    @Test
    void withCredentialsRequiredAWriteForwardedToTheWriterCarriesTheForwardingRegistrysOwn() throws Exception {
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(),
                Map.of("http.auth.basic.user.info", "registry:wr1ter-pa55")).httpSecurity();
        Registry first = startRegistry(security);
        Registry second = startRegistry(security);
        SchemaRegistryClient withCredentials = new RestSchemaRegistryClient(List.of(URI.create(first.url())),
                Optional.of("registry:wr1ter-pa55"), Duration.ofSeconds(10), 1, Duration.ofMillis(100));

        int id = withCredentials.register("orders-value", schema("Order"));

        assertThat(second.store().writerUrl()).as("the last registry started writes").contains(second.url());
        assertThat(client(second.url()).schemaById(id)).isEqualTo(schema("Order"));
        assertThatThrownBy(() -> new RestSchemaRegistryClient(List.of(URI.create(first.url())), Optional.empty(),
                Duration.ofSeconds(10), 1, Duration.ofMillis(100)).register("other-value", schema("Other")))
                .hasMessageContaining("answered 401");
    }

    @Test
    void aWriterThatStopsAndANewOneThatStartsNeverReuseIds() throws Exception {
        Registry first = startRegistry();
        Map<String, Integer> ids = new HashMap<>();
        registerSchemas(first, "before", ids);
        Registry second = startRegistry();
        registerSchemas(first, "forwarded", ids);
        registerSchemas(second, "second", ids);

        second.close();
        registerSchemas(first, "alone", ids);
        Registry third = startRegistry();
        registerSchemas(first, "after", ids);
        registerSchemas(third, "third", ids);

        assertThat(Set.copyOf(ids.values())).as("ids of %d different schemas", ids.size()).hasSize(ids.size());
        assertThat(first.store().writerUrl()).contains(third.url());
    }

    @Test
    void aRegistryTakesTheWriterRoleOverWhenTheWriterDoesNotAnswerAndTheOldWriterCanNoLongerWrite() throws Exception {
        Registry first = startRegistry();
        Registry second = startRegistry();
        int before = client(second.url()).register("before-value", schema("Before"));
        second.stopHttp();

        int after = client(first.url()).register("after-value", schema("After"));

        assertThat(after).isNotEqualTo(before);
        assertThat(first.store().writerUrl()).contains(first.url());
        assertThatThrownBy(() -> second.store().register("stale-value", schema("Stale")))
                .isInstanceOfSatisfying(NotTheWriterException.class,
                        e -> assertThat(e.writerUrl()).isEqualTo(first.url()));
    }

    /** Issue 29 item 5: a restart's registrations of schemas already on the topic cost no read of the topic each. */
    @Test
    void aSchemaAlreadyReadIsAnsweredWithoutReadingTheTopicAgainAndARestartedRegistryGivesTheSameIds() throws Exception {
        Registry first = startRegistry();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(first.store().register("known-" + i + "-value", schema("Known" + i)).id());
        }
        int readsBefore = first.store().catchUps();
        for (int i = 0; i < 3; i++) {
            assertThat(first.store().register("known-" + i + "-value", schema("Known" + i)).id()).isEqualTo(ids.get(i));
        }
        assertThat(first.store().catchUps()).as("reads of the topic for schemas already read").isEqualTo(readsBefore);
        first.close();

        Registry restarted = startRegistry();
        int readsAtStart = restarted.store().catchUps();
        for (int i = 0; i < 3; i++) {
            assertThat(restarted.store().register("known-" + i + "-value", schema("Known" + i)).id()).isEqualTo(ids.get(i));
        }
        assertThat(restarted.store().catchUps()).as("reads of the topic for schemas read at start").isEqualTo(readsAtStart);
        // a schema not read yet still reads the topic to its end before it gets the next id
        assertThat(restarted.store().register("new-value", schema("New")).id()).isEqualTo(ids.get(2) + 1);
        assertThat(restarted.store().catchUps()).isEqualTo(readsAtStart + 1);
    }

    private static void registerSchemas(Registry registry, String name, Map<String, Integer> ids) {
        SchemaRegistryClient client = client(registry.url());
        for (int i = 0; i < 3; i++) {
            String schema = schema(name + i);
            ids.put(schema, client.register(name + "-" + i + "-value", schema));
        }
    }

    /**
     * Registers, each round, a schema of its own under a subject of its own and then the round's shared schema under
     * another subject of its own, starting each round together with the other thread. Answers the id of each schema.
     */
    private static Map<String, Integer> registerRounds(String url, String name, CyclicBarrier together) throws Exception {
        SchemaRegistryClient registry = client(url);
        Map<String, Integer> ids = new HashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            together.await();
            String own = schema(name + round);
            ids.put(own, registry.register(name + "-" + round + "-value", own));
            String shared = schema("Shared" + round);
            ids.put(shared, registry.register(name + "-shared-" + round + "-value", shared));
        }
        return ids;
    }

    /** A record schema, in the registry's normalized text, so answers compare as strings. */
    private static String schema(String name) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
    }

    /** One embedded registry: what each instance of the service runs. Stopping it twice does nothing more. */
    private static final class Registry implements AutoCloseable {
        private final KafkaSchemaStore store;
        private final SchemaRegistryServer server;
        private boolean httpStopped;
        private boolean closed;

        Registry(KafkaSchemaStore store, SchemaRegistryServer server) {
            this.store = store;
            this.server = server;
        }

        KafkaSchemaStore store() {
            return store;
        }

        String url() {
            return server.url();
        }

        /** Stops answering, as a crashed instance does, but leaves its Kafka clients as they are. */
        void stopHttp() {
            if (!httpStopped) {
                httpStopped = true;
                server.close();
            }
        }

        @Override
        public void close() {
            stopHttp();
            if (!closed) {
                closed = true;
                store.close();
            }
        }
    }

    private Registry startRegistry() throws IOException {
        return startRegistry(HttpSecurity.none());
    }

    private Registry startRegistry(HttpSecurity security) throws IOException {
        KafkaSchemaStore store = new KafkaSchemaStore(topic, clientConfig());
        try {
            Registry registry = new Registry(store, new SchemaRegistryServer(store, "127.0.0.1", 0, "127.0.0.1",
                    SchemaRegistryServer.DEFAULT_MAX_REQUEST_BYTES, security));
            started.add(registry);
            return registry;
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private static SchemaRegistryClient client(String url) {
        return new RestSchemaRegistryClient(List.of(URI.create(url)), Optional.empty(), Duration.ofSeconds(10), 6,
                Duration.ofMillis(100));
    }

    private static Map<String, Object> clientConfig() {
        return Map.of("bootstrap.servers", kafka.bootstrapServers());
    }
}

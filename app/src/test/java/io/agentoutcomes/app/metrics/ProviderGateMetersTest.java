package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.topology.provider.ProviderGateStores;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider gate's meters read by concurrent scrapes: two concurrent scrapes once answered 500
 * ({@code ConcurrentModificationException} in {@code ProviderGateMeters.update}, a shared {@code HashMap}).
 */
class ProviderGateMetersTest {
    private static final int SCOPES = 2_000;
    private static final int SCRAPERS = 8;

    @TempDir
    Path stateDir;

    @Test
    void concurrentRefreshesRegisterEveryScopeOnceWithItsValues() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (KafkaStreams streams = new StoreOfScopes(stateDir)) {
            ProviderGateMeters meters = new ProviderGateMeters(registry, streams);
            ExecutorService threads = Executors.newFixedThreadPool(SCRAPERS);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> refreshes = new ArrayList<>();
                for (int i = 0; i < SCRAPERS; i++) {
                    refreshes.add(threads.submit(() -> {
                        go.await();
                        meters.refresh();
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> refresh : refreshes) {
                    refresh.get();
                }
            } finally {
                threads.shutdownNow();
            }
        }

        assertThat(registry.find("agent_outcomes_provider_retries_held").gauges()).hasSize(SCOPES)
                .allSatisfy(gauge -> assertThat(gauge.value())
                        .isEqualTo(Double.parseDouble(gauge.getId().getTag(GenAiConventions.REQUEST_MODEL).substring(6))));
        // the retry budget's: 1 while it holds the scope's retries (odd scopes here), and the retries it stopped
        assertThat(registry.find("agent_outcomes_provider_retry_budget_exhausted").gauges()).hasSize(SCOPES)
                .allSatisfy(gauge -> assertThat(gauge.value())
                        .isEqualTo(Integer.parseInt(gauge.getId().getTag(GenAiConventions.REQUEST_MODEL).substring(6)) % 2));
        assertThat(registry.find("agent_outcomes_provider_retries_budget_stopped").functionCounters()).hasSize(SCOPES)
                .allSatisfy(counter -> assertThat(counter.count())
                        .isEqualTo(3.0 * Integer.parseInt(counter.getId().getTag(GenAiConventions.REQUEST_MODEL).substring(6))));
        assertThat(registry.scrape()).contains("agent_outcomes_provider_retries_budget_stopped_total{");
        // retries moved to a fallback: labelled by the scope moved from, the fallback (the scope that counted) and why
        assertThat(registry.find("agent_outcomes_provider_retries_fallback").functionCounters()).hasSize(2 * SCOPES / 100);
        for (int i = 0; i < SCOPES; i += 100) {
            FunctionCounter circuit = registry.find("agent_outcomes_provider_retries_fallback")
                    .tags(GenAiConventions.PROVIDER_NAME, "flaky", GenAiConventions.REQUEST_MODEL, "m-" + i,
                            "fallback_provider_name", "openai", "fallback_request_model", "model-" + i, "cause", "circuit_open")
                    .functionCounter();
            assertThat(circuit).as("circuit_open to model-%d", i).isNotNull();
            assertThat(circuit.count()).isEqualTo(2.0 * i + 1);
            assertThat(registry.find("agent_outcomes_provider_retries_fallback").tags(GenAiConventions.PROVIDER_NAME, "flaky",
                    GenAiConventions.REQUEST_MODEL, "all", "fallback_request_model", "model-" + i, "cause", "daily_limit")
                    .functionCounter().count()).isEqualTo(7.0);
        }
        assertThat(registry.scrape()).contains("agent_outcomes_provider_retries_fallback_total{cause=\"circuit_open\","
                + "fallback_provider_name=\"openai\",fallback_request_model=\"model-100\",gen_ai_provider_name=\"flaky\","
                + "gen_ai_request_model=\"m-100\"} 201.0");
        registry.close();
    }

    /** A Kafka Streams instance, never started, whose provider gate store answers {@value #SCOPES} scopes. */
    private static final class StoreOfScopes extends KafkaStreams {
        StoreOfScopes(Path stateDir) {
            super(topology(), properties(stateDir));
        }

        private static org.apache.kafka.streams.Topology topology() {
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream("in").to("out");
            return builder.build();
        }

        private static Properties properties(Path stateDir) {
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "provider-gate-meters-test");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            return props;
        }

        @Override
        public State state() {
            return State.RUNNING;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <R> StateQueryResult<R> query(StateQueryRequest<R> request) {
            assertThat(request.getStoreName()).isEqualTo(ProviderGateStores.STATE_STORE);
            List<KeyValue<String, ProviderState>> scopes = new ArrayList<>();
            for (int i = 0; i < SCOPES; i++) {
                scopes.add(KeyValue.pair("openai|model-" + i, ProviderState.newBuilder().setProvider("openai")
                        .setModel("model-" + i).setHeld(i).setBudgetExhaustedSince(i % 2 == 0 ? 0 : 1_000 + i).setBudgetStopped(3L * i)
                        .setFallbacksReceived(i % 100 != 0 ? List.of() : List.of(
                                new FallbackCount("flaky", "m-" + i, FallbackCause.CIRCUIT_OPEN, 2L * i + 1),
                                new FallbackCount("flaky", null, FallbackCause.DAILY_LIMIT, 7L)))
                        .build()));
            }
            StateQueryResult<R> result = new StateQueryResult<>();
            result.addResult(0, QueryResult.forResult((R) new ListIterator(scopes.iterator())));
            return result;
        }
    }

    private record ListIterator(Iterator<KeyValue<String, ProviderState>> entries)
            implements KeyValueIterator<String, ProviderState> {
        @Override
        public boolean hasNext() {
            return entries.hasNext();
        }

        @Override
        public KeyValue<String, ProviderState> next() {
            return entries.next();
        }

        @Override
        public String peekNextKey() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}

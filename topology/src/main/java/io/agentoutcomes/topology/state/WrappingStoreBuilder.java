package io.agentoutcomes.topology.state;

import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Builds a store of ours around a key-value store that Kafka Streams builds (persistent, changelogged, metered): the
 * logging settings go to the inner store; caching is the outer store's own business, so the record cache stays off.
 *
 * @param <K> the inner store's keys
 * @param <V> the inner store's values
 * @param <S> the outer store
 */
public final class WrappingStoreBuilder<K, V, S extends StateStore> implements StoreBuilder<S> {
    private final StoreBuilder<KeyValueStore<K, V>> inner;
    private final Function<KeyValueStore<K, V>, S> wrap;

    public WrappingStoreBuilder(StoreBuilder<KeyValueStore<K, V>> inner, Function<KeyValueStore<K, V>, S> wrap) {
        this.inner = inner.withCachingDisabled();
        this.wrap = wrap;
    }

    @Override
    public StoreBuilder<S> withCachingEnabled() {
        return this;
    }

    @Override
    public StoreBuilder<S> withCachingDisabled() {
        return this;
    }

    @Override
    public StoreBuilder<S> withLoggingEnabled(Map<String, String> config) {
        inner.withLoggingEnabled(config);
        return this;
    }

    @Override
    public StoreBuilder<S> withLoggingDisabled() {
        inner.withLoggingDisabled();
        return this;
    }

    @Override
    public S build() {
        return wrap.apply(inner.build());
    }

    @Override
    public Map<String, String> logConfig() {
        return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return inner.loggingEnabled();
    }

    @Override
    public String name() {
        return inner.name();
    }
}

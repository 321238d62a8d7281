package io.agentoutcomes.topology.state;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A changelogged key-value store of encoded values with the decoded values of its most recently used keys kept in
 * memory in front of it: a processor reads and replaces objects ({@link #read}, {@link #write}), and what it changed
 * is encoded and written to the store, and so to the changelog, once per key as Kafka Streams prepares a commit (or
 * when a changed key leaves the memory). Kafka Streams' own record cache keeps encoded values, so every read decodes
 * and every write encodes; for a task's state, read and rewritten by each of its records, that was a sixth of the
 * stream thread (issue 18's profile).
 * <p>
 * Exactly-once holds as for the record cache: Kafka Streams flushes a {@link CachedStateStore} before the commit's
 * transaction ends, so whatever a commit covers is in the changelog inside that transaction; what was only in memory
 * was not committed, and its input is processed again after a crash.
 * <p>
 * Seen through {@link KeyValueStore} (range scans, deletes, tests) it is the store itself: changed values are written
 * first. Not thread-safe: one stream task's.
 *
 * @param <V> the decoded value
 */
public final class WriteBehindStore<V> implements KeyValueStore<String, byte[]>, CachedStateStore<String, byte[]> {
    /** How values are kept in the store. */
    public interface Codec<V> {
        byte[] encode(V value);

        V decode(byte[] bytes);
    }

    private static final class Entry<V> {
        V value;
        boolean dirty;

        Entry(V value, boolean dirty) {
            this.value = value;
            this.dirty = dirty;
        }
    }

    private final KeyValueStore<String, byte[]> inner;
    private final Codec<V> codec;
    /** Decoded values, least recently used first; a changed value leaving it is written to the store. */
    private final LinkedHashMap<String, Entry<V>> entries;

    private WriteBehindStore(KeyValueStore<String, byte[]> inner, Codec<V> codec, int capacity) {
        this.inner = inner;
        this.codec = codec;
        this.entries = new LinkedHashMap<>(Math.min(capacity, 1024) * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry<V>> eldest) {
                if (size() <= capacity) {
                    return false;
                }
                if (eldest.getValue().dirty) {
                    inner.put(eldest.getKey(), codec.encode(eldest.getValue().value));
                }
                return true;
            }
        };
    }

    /**
     * A persistent, changelogged store under {@code name}, keeping the decoded values of up to {@code capacity} keys in
     * memory per stream task; each store gets a codec of its own from {@code codecs} (codecs may reuse buffers).
     */
    public static <V> StoreBuilder<WriteBehindStore<V>> builder(String name, Supplier<Codec<V>> codecs, int capacity) {
        return new WrappingStoreBuilder<>(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(),
                Serdes.ByteArray()), store -> new WriteBehindStore<>(store, codecs.get(), capacity));
    }

    /** A write-behind store over a given store (tests: over an in-memory one). */
    static <V> WriteBehindStore<V> over(KeyValueStore<String, byte[]> inner, Codec<V> codec, int capacity) {
        return new WriteBehindStore<>(inner, codec, capacity);
    }

    /**
     * The store {@code name} of a processor's task. Kafka Streams hands processors a key-value store behind a
     * decorator of its own, which hides {@link #read} and {@link #write}: this is the store under it.
     */
    @SuppressWarnings("unchecked")
    public static <V> WriteBehindStore<V> of(ProcessorContext<?, ?> context, String name) {
        StateStore store = context.getStateStore(name);
        while (!(store instanceof WriteBehindStore) && store instanceof WrappedStateStore<?, ?, ?> wrapper) {
            store = wrapper.wrapped();
        }
        if (!(store instanceof WriteBehindStore<?> found)) {
            throw new IllegalStateException("store " + name + " is not a WriteBehindStore: " + store);
        }
        return (WriteBehindStore<V>) found;
    }

    /** The value of {@code key}, or null. The object is the store's: change it only to {@link #write} it back. */
    public V read(String key) {
        Entry<V> entry = entries.get(key);
        if (entry != null) {
            return entry.value;
        }
        byte[] bytes = inner.get(key);
        if (bytes == null) {
            return null;
        }
        V value = codec.decode(bytes);
        entries.put(key, new Entry<>(value, false));
        return value;
    }

    /** Sets the value of {@code key}; written to the store when the next commit is prepared. */
    public void write(String key, V value) {
        Entry<V> entry = entries.get(key);
        if (entry == null) {
            entries.put(key, new Entry<>(value, true));
        } else {
            entry.value = value;
            entry.dirty = true;
        }
    }

    /** Writes every changed value to the store. */
    private void writeChanged() {
        for (Map.Entry<String, Entry<V>> entry : entries.entrySet()) {
            if (entry.getValue().dirty) {
                inner.put(entry.getKey(), codec.encode(entry.getValue().value));
                entry.getValue().dirty = false;
            }
        }
    }

    @Override
    public void flushCache() {
        writeChanged();
    }

    /** Called when a task's state is recycled or closed dirty: what is only in memory was never committed. */
    @Override
    public void clearCache() {
        entries.clear();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<String, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public byte[] get(String key) {
        Entry<V> entry = entries.get(key);
        return entry != null ? codec.encode(entry.value) : inner.get(key);
    }

    @Override
    public void put(String key, byte[] value) {
        entries.remove(key);
        inner.put(key, value);
    }

    @Override
    public byte[] putIfAbsent(String key, byte[] value) {
        byte[] current = get(key);
        if (current == null) {
            put(key, value);
        }
        return current;
    }

    @Override
    public void putAll(List<KeyValue<String, byte[]>> values) {
        values.forEach(kv -> put(kv.key, kv.value));
    }

    @Override
    public byte[] delete(String key) {
        byte[] current = get(key);
        entries.remove(key);
        inner.delete(key);
        return current;
    }

    @Override
    public KeyValueIterator<String, byte[]> range(String from, String to) {
        writeChanged();
        return inner.range(from, to);
    }

    @Override
    public KeyValueIterator<String, byte[]> reverseRange(String from, String to) {
        writeChanged();
        return inner.reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<String, byte[]> all() {
        writeChanged();
        return inner.all();
    }

    @Override
    public KeyValueIterator<String, byte[]> reverseAll() {
        writeChanged();
        return inner.reverseAll();
    }

    @Override
    public long approximateNumEntries() {
        return inner.approximateNumEntries();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        inner.init(context, root);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void flush() {
        writeChanged();
        inner.flush();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        writeChanged();
        inner.commit(changelogOffsets);
    }

    @Override
    public void close() {
        entries.clear();
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }

    /** For tests: the keys whose decoded values are in memory, least recently used first. */
    List<String> keysInMemory() {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = entries.keySet().iterator(); it.hasNext(); ) {
            keys.add(it.next());
        }
        return keys;
    }
}

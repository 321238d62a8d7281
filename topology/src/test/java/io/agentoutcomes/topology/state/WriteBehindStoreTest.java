package io.agentoutcomes.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write-behind store over an in-memory store, as a processor and Kafka Streams' commit see it. */
class WriteBehindStoreTest {
    /** A codec that counts its work. */
    private static final class Counting implements WriteBehindStore.Codec<String> {
        int encoded;
        int decoded;

        @Override
        public byte[] encode(String value) {
            encoded++;
            return value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            decoded++;
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private final Counting codec = new Counting();
    private KeyValueStore<String, byte[]> inner;
    private WriteBehindStore<String> store;

    @BeforeEach
    void setUp() {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        inner = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("tasks"), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled().withCachingDisabled().build();
        store = WriteBehindStore.over(inner, codec, 2);
        store.init(context.getStateStoreContext(), store);
    }

    @Test
    void aValueWrittenManyTimesIsEncodedAndStoredOnceWhenTheCommitIsPrepared() {
        store.write("task-1", "a");
        store.write("task-1", "b");
        store.write("task-1", "c");
        assertThat(inner.get("task-1")).isNull();
        assertThat(store.read("task-1")).isEqualTo("c");

        store.flushCache();

        assertThat(new String(inner.get("task-1"), StandardCharsets.UTF_8)).isEqualTo("c");
        assertThat(codec.encoded).isEqualTo(1);
        store.flushCache();
        assertThat(codec.encoded).as("unchanged since: not written again").isEqualTo(1);
    }

    @Test
    void aValueReadFromTheStoreIsDecodedOnceAndThenServedFromMemory() {
        inner.put("task-1", "stored".getBytes(StandardCharsets.UTF_8));

        assertThat(store.read("task-1")).isEqualTo("stored");
        assertThat(store.read("task-1")).isEqualTo("stored");
        assertThat(codec.decoded).isEqualTo(1);
        assertThat(store.read("nothing")).isNull();
    }

    @Test
    void aChangedValueLeavingMemoryIsWrittenFirst() {
        store.write("task-1", "one");
        store.write("task-2", "two");
        store.write("task-3", "three");

        assertThat(store.keysInMemory()).containsExactly("task-2", "task-3");
        assertThat(new String(inner.get("task-1"), StandardCharsets.UTF_8)).isEqualTo("one");
        assertThat(inner.get("task-2")).isNull();
        assertThat(store.read("task-1")).isEqualTo("one");
    }

    @Test
    void aRangeScanSeesChangedValuesAndADeleteRemovesFromBoth() {
        store.write("task-1", "one");
        store.write("task-2", "two");

        List<KeyValue<String, byte[]>> all = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range(null, null)) {
            it.forEachRemaining(all::add);
        }
        assertThat(all).extracting(kv -> kv.key).containsExactly("task-1", "task-2");

        store.delete("task-1");
        assertThat(store.read("task-1")).isNull();
        assertThat(inner.get("task-1")).isNull();
    }

    @Test
    void whatWasOnlyInMemoryIsGoneWhenTheCacheIsCleared() {
        store.write("task-1", "uncommitted");

        store.clearCache();

        assertThat(store.read("task-1")).isNull();
        assertThat(inner.get("task-1")).isNull();
    }
}

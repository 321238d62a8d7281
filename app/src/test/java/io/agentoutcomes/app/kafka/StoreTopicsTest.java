package io.agentoutcomes.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class StoreTopicsTest {
    /** A processor that only names its store. */
    private static final class Keep implements Processor<String, String, Void, Void> {
        @Override
        public void process(Record<String, String> record) {
        }
    }

    @Test
    void eachStoreMapsToTheSourceTopicsOfItsSubTopologyWithRepartitionTopicsNamedInFull() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("first"), Serdes.String(), Serdes.String()));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("second"), Serdes.String(), Serdes.String()));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("third"), Serdes.String(), Serdes.String()));
        var in = builder.stream(Set.of("a", "b"), Consumed.with(Serdes.String(), Serdes.String()));
        in.process(Keep::new, "first");
        in.repartition(Repartitioned.<String, String>as("by-x").withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .process(Keep::new, "second", "third");

        Map<String, Set<String>> topics = StoreTopics.of(builder.build().describe(), "app");

        assertThat(topics).containsOnly(
                Map.entry("first", Set.of("a", "b")),
                Map.entry("second", Set.of("app-by-x-repartition")),
                Map.entry("third", Set.of("app-by-x-repartition")));
    }
}

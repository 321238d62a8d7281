package io.agentoutcomes.topology.state;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A processor's supplier that declares the stores its processor uses (Kafka's {@code ConnectedStoreProvider}), so the
 * wiring class only connects nodes: Kafka Streams adds each store once and connects it to every processor whose
 * supplier declares it. A second processor sharing a store connects it by name instead: declared by two suppliers
 * (even as the same {@link StoreBuilder}), Kafka Streams 4.3.1 does not put the two processors in one sub-topology.
 */
public final class StoreOwningSupplier<KIn, VIn, KOut, VOut> implements ProcessorSupplier<KIn, VIn, KOut, VOut> {
    private final Supplier<Processor<KIn, VIn, KOut, VOut>> processors;
    private final Set<StoreBuilder<?>> stores;

    /** @param stores in the order Kafka Streams adds them, which the topology's description follows */
    public StoreOwningSupplier(Supplier<Processor<KIn, VIn, KOut, VOut>> processors, StoreBuilder<?>... stores) {
        this.processors = processors;
        this.stores = Collections.unmodifiableSet(new LinkedHashSet<>(List.of(stores)));
    }

    /** A new processor each time, as Kafka Streams asks one per task. */
    @Override
    public Processor<KIn, VIn, KOut, VOut> get() {
        return processors.get();
    }

    @Override
    public Set<StoreBuilder<?>> stores() {
        return stores;
    }
}

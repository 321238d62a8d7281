package io.agentoutcomes.bench;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.ProcessorWrapper;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.WrappedFixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.WrappedProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Times every processor of a topology (KIP-1112, {@code processor.wrapper.class}; the bench's {@code --stage-costs}):
 * the wall time of each {@code process} call less the time spent in the wrapped processors it forwarded to, so each
 * node holds its own work and that of the sinks it writes to (their serialization and send), and the time of the
 * punctuations the project's processors schedule. Kafka's own DSL processors (branches, merges, repartition filters)
 * are timed too, but get Kafka's context unwrapped: they cast it to its internal type. Costs two clock reads and a
 * thread-local look-up per call; the throughput suite measures what that adds per record.
 */
public final class StageCostWrapper implements ProcessorWrapper {
    private StageCosts costs = StageCosts.of("unknown");

    @Override
    public void configure(Map<String, ?> configs) {
        Object applicationId = configs.get(StreamsConfig.APPLICATION_ID_CONFIG);
        costs = StageCosts.of(String.valueOf(applicationId));
    }

    @Override
    public <KIn, VIn, KOut, VOut> WrappedProcessorSupplier<KIn, VIn, KOut, VOut> wrapProcessorSupplier(String name,
            ProcessorSupplier<KIn, VIn, KOut, VOut> supplier) {
        StageCosts.NodeCost node = costs.node(name);
        return new WrappedProcessorSupplier<>() {
            @Override
            public Processor<KIn, VIn, KOut, VOut> get() {
                return new TimedProcessor<>(supplier.get(), node, costs);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }

    @Override
    public <KIn, VIn, VOut> WrappedFixedKeyProcessorSupplier<KIn, VIn, VOut> wrapFixedKeyProcessorSupplier(String name,
            FixedKeyProcessorSupplier<KIn, VIn, VOut> supplier) {
        StageCosts.NodeCost node = costs.node(name);
        return new WrappedFixedKeyProcessorSupplier<>() {
            @Override
            public FixedKeyProcessor<KIn, VIn, VOut> get() {
                return new TimedFixedKeyProcessor<>(supplier.get(), node, costs);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }

    /** Whether a processor is Kafka's own (its context must stay Kafka's: it casts it to an internal type). */
    static boolean isKafkas(Object processor) {
        return processor.getClass().getName().startsWith("org.apache.kafka.");
    }

    private static final class TimedProcessor<KIn, VIn, KOut, VOut> implements Processor<KIn, VIn, KOut, VOut> {
        private final Processor<KIn, VIn, KOut, VOut> processor;
        private final StageCosts.NodeCost node;
        private final StageCosts costs;

        TimedProcessor(Processor<KIn, VIn, KOut, VOut> processor, StageCosts.NodeCost node, StageCosts costs) {
            this.processor = processor;
            this.node = node;
            this.costs = costs;
        }

        @Override
        public void init(ProcessorContext<KOut, VOut> context) {
            processor.init(isKafkas(processor) ? context : new TimedContexts.Plain<>(context, costs, node));
        }

        @Override
        public void process(Record<KIn, VIn> record) {
            costs.timed(node, false, () -> processor.process(record));
        }

        @Override
        public void close() {
            processor.close();
        }
    }

    private static final class TimedFixedKeyProcessor<KIn, VIn, VOut> implements FixedKeyProcessor<KIn, VIn, VOut> {
        private final FixedKeyProcessor<KIn, VIn, VOut> processor;
        private final StageCosts.NodeCost node;
        private final StageCosts costs;

        TimedFixedKeyProcessor(FixedKeyProcessor<KIn, VIn, VOut> processor, StageCosts.NodeCost node, StageCosts costs) {
            this.processor = processor;
            this.node = node;
            this.costs = costs;
        }

        @Override
        public void init(FixedKeyProcessorContext<KIn, VOut> context) {
            processor.init(isKafkas(processor) ? context : new TimedContexts.FixedKey<>(context, costs, node));
        }

        @Override
        public void process(FixedKeyRecord<KIn, VIn> record) {
            costs.timed(node, false, () -> processor.process(record));
        }

        @Override
        public void close() {
            processor.close();
        }
    }
}

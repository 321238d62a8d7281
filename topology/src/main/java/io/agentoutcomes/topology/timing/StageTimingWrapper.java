package io.agentoutcomes.topology.timing;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.processor.TaskId;
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
 * Times every processor node's {@code process} calls into the {@link StageTimings} handed over in the settings
 * (KIP-1112, {@code processor.wrapper.class}; Kafka Streams applies it only to a topology built with those settings
 * in its {@code TopologyConfig}, as {@code AgentOutcomesTopology} does). A node's time is its own: the wall time of a
 * call less the time spent in the wrapped nodes it forwarded to, so it holds its work and that of the sinks it writes
 * to (their serialization and send), and the nodes' times add up without counting anything twice. Kafka's own DSL
 * nodes (branches, merges, repartition filters) are timed too; punctuations are not (Kafka Streams' task metrics
 * {@code punctuate-latency-*} have them). Two clock reads per call, no allocation per call; the processors, their stores and
 * their contexts are Kafka's, untouched.
 */
public final class StageTimingWrapper implements ProcessorWrapper {
    private StageTimings timings;

    @Override
    public void configure(Map<String, ?> configs) {
        timings = StageTimings.from(configs);
    }

    @Override
    public <KIn, VIn, KOut, VOut> WrappedProcessorSupplier<KIn, VIn, KOut, VOut> wrapProcessorSupplier(String name,
            ProcessorSupplier<KIn, VIn, KOut, VOut> supplier) {
        if (timings == null) {
            return ProcessorWrapper.asWrapped(supplier);
        }
        StageTimings.Node node = timings.node(name);
        StageTimings all = timings;
        return new WrappedProcessorSupplier<>() {
            @Override
            public Processor<KIn, VIn, KOut, VOut> get() {
                return new TimedProcessor<>(supplier.get(), new Clock(all, node));
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
        if (timings == null) {
            return ProcessorWrapper.asWrappedFixedKey(supplier);
        }
        StageTimings.Node node = timings.node(name);
        StageTimings all = timings;
        return new WrappedFixedKeyProcessorSupplier<>() {
            @Override
            public FixedKeyProcessor<KIn, VIn, VOut> get() {
                return new TimedFixedKeyProcessor<>(supplier.get(), new Clock(all, node));
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }

    /**
     * One processor instance's timing (an instance belongs to one task, whose calls never re-enter it): on entry, the
     * time below its caller is put aside; on exit, its own time is counted and its whole time added below its caller.
     */
    static final class Clock {
        private final StageTimings timings;
        private final StageTimings.Node node;
        private StageTimings.Below below;
        private long callerBelow;

        Clock(StageTimings timings, StageTimings.Node node) {
            this.timings = timings;
            this.node = node;
        }

        void init(TaskId task) {
            below = timings.below(task);
        }

        long enter() {
            callerBelow = below.nanos;
            below.nanos = 0;
            return System.nanoTime();
        }

        void exit(long start) {
            long elapsed = System.nanoTime() - start;
            node.add(elapsed - below.nanos);
            below.nanos = callerBelow + elapsed;
        }
    }

    private static final class TimedProcessor<KIn, VIn, KOut, VOut> implements Processor<KIn, VIn, KOut, VOut> {
        private final Processor<KIn, VIn, KOut, VOut> processor;
        private final Clock clock;

        TimedProcessor(Processor<KIn, VIn, KOut, VOut> processor, Clock clock) {
            this.processor = processor;
            this.clock = clock;
        }

        @Override
        public void init(ProcessorContext<KOut, VOut> context) {
            clock.init(context.taskId());
            processor.init(context);
        }

        @Override
        public void process(Record<KIn, VIn> record) {
            long start = clock.enter();
            try {
                processor.process(record);
            } finally {
                clock.exit(start);
            }
        }

        @Override
        public void close() {
            processor.close();
        }
    }

    private static final class TimedFixedKeyProcessor<KIn, VIn, VOut> implements FixedKeyProcessor<KIn, VIn, VOut> {
        private final FixedKeyProcessor<KIn, VIn, VOut> processor;
        private final Clock clock;

        TimedFixedKeyProcessor(FixedKeyProcessor<KIn, VIn, VOut> processor, Clock clock) {
            this.processor = processor;
            this.clock = clock;
        }

        @Override
        public void init(FixedKeyProcessorContext<KIn, VOut> context) {
            clock.init(context.taskId());
            processor.init(context);
        }

        @Override
        public void process(FixedKeyRecord<KIn, VIn> record) {
            long start = clock.enter();
            try {
                processor.process(record);
            } finally {
                clock.exit(start);
            }
        }

        @Override
        public void close() {
            processor.close();
        }
    }
}

package io.agentoutcomes.bench;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The contexts {@link StageCostWrapper} hands the project's processors: Kafka's, with each punctuation a processor
 * schedules timed to its node. Everything else is passed through.
 */
final class TimedContexts {
    private TimedContexts() {
    }

    /** What both kinds of context share: every call delegated, punctuators timed. */
    private abstract static class Delegating implements ProcessingContext {
        private final ProcessingContext context;
        private final StageCosts costs;
        private final StageCosts.NodeCost node;

        Delegating(ProcessingContext context, StageCosts costs, StageCosts.NodeCost node) {
            this.context = context;
            this.costs = costs;
            this.node = node;
        }

        private Punctuator timed(Punctuator punctuator) {
            return timestamp -> costs.timed(node, true, () -> punctuator.punctuate(timestamp));
        }

        @Override
        public Cancellable schedule(Duration interval, PunctuationType type, Punctuator callback) {
            return context.schedule(interval, type, timed(callback));
        }

        @Override
        public Cancellable schedule(Instant startTime, Duration interval, PunctuationType type, Punctuator callback) {
            return context.schedule(startTime, interval, type, timed(callback));
        }

        @Override
        public String applicationId() {
            return context.applicationId();
        }

        @Override
        public TaskId taskId() {
            return context.taskId();
        }

        @Override
        public Optional<RecordMetadata> recordMetadata() {
            return context.recordMetadata();
        }

        @Override
        public Serde<?> keySerde() {
            return context.keySerde();
        }

        @Override
        public Serde<?> valueSerde() {
            return context.valueSerde();
        }

        @Override
        public File stateDir() {
            return context.stateDir();
        }

        @Override
        public StreamsMetrics metrics() {
            return context.metrics();
        }

        @Override
        public <S extends StateStore> S getStateStore(String name) {
            return context.getStateStore(name);
        }

        @Override
        public void commit() {
            context.commit();
        }

        @Override
        public Map<String, Object> appConfigs() {
            return context.appConfigs();
        }

        @Override
        public Map<String, Object> appConfigsWithPrefix(String prefix) {
            return context.appConfigsWithPrefix(prefix);
        }

        @Override
        public long currentSystemTimeMs() {
            return context.currentSystemTimeMs();
        }

        @Override
        public long currentStreamTimeMs() {
            return context.currentStreamTimeMs();
        }
    }

    /** A {@link ProcessorContext}, punctuations timed. */
    static final class Plain<KForward, VForward> extends Delegating implements ProcessorContext<KForward, VForward> {
        private final ProcessorContext<KForward, VForward> context;

        Plain(ProcessorContext<KForward, VForward> context, StageCosts costs, StageCosts.NodeCost node) {
            super(context, costs, node);
            this.context = context;
        }

        @Override
        public <K extends KForward, V extends VForward> void forward(Record<K, V> record) {
            context.forward(record);
        }

        @Override
        public <K extends KForward, V extends VForward> void forward(Record<K, V> record, String childName) {
            context.forward(record, childName);
        }
    }

    /** A {@link FixedKeyProcessorContext}, punctuations timed. */
    static final class FixedKey<KForward, VForward> extends Delegating implements FixedKeyProcessorContext<KForward, VForward> {
        private final FixedKeyProcessorContext<KForward, VForward> context;

        FixedKey(FixedKeyProcessorContext<KForward, VForward> context, StageCosts costs, StageCosts.NodeCost node) {
            super(context, costs, node);
            this.context = context;
        }

        @Override
        public <K extends KForward, V extends VForward> void forward(FixedKeyRecord<K, V> record) {
            context.forward(record);
        }

        @Override
        public <K extends KForward, V extends VForward> void forward(FixedKeyRecord<K, V> record, String childName) {
            context.forward(record, childName);
        }
    }
}

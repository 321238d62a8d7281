package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.streams.BoundedRocksDbMemory;
import io.agentoutcomes.app.streams.InstanceName;
import io.agentoutcomes.app.streams.RejectingDeserializationHandler;
import io.agentoutcomes.app.streams.RejectingProcessingHandler;
import io.agentoutcomes.app.streams.RejectingProductionHandler;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.timing.StageTimingWrapper;
import io.agentoutcomes.topology.timing.StageTimings;
import io.agentoutcomes.topology.topic.Topics;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The service's Kafka Streams settings: exactly-once, the rejecting handlers, bounded RocksDB memory, two stream
 * threads, static membership and a short session, a standby per task, every processor node timed when
 * {@code metrics.stage.timings.enabled=true} (off by default); then the configured client settings.
 */
public final class StreamsProperties {
    /** The service's {@code num.stream.threads} unless set (Kafka Streams' own default is 1). */
    public static final int DEFAULT_STREAM_THREADS = 2;
    /**
     * The service's {@code session.timeout.ms} unless set (Kafka's own default is 45 s): the least a broker allows by
     * default ({@code group.min.session.timeout.ms}), with a heartbeat every 2 s.
     */
    public static final int DEFAULT_SESSION_TIMEOUT_MS = 6_000;

    private StreamsProperties() {
    }

    /** The settings of the service's Kafka Streams application: its defaults, then the configured client settings. */
    static Properties of(AppConfig config, Map<String, Object> clientConfig, Topics topics) {
        Properties props = new Properties();
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("streams").toAbsolutePath().toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingDeserializationHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingProcessingHandler.class);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingProductionHandler.class);
        // The processing handler for the global store (budget-status) too, as Kafka 5 will do (Kafka 4 warns at every
        // start while it is off): a status record its processor cannot take is logged, counted as dropped and skipped
        // (the next status of that budget replaces it; Kafka writes no dead letter from the global thread) instead of
        // ending the global thread, which cannot be replaced, and the service, on that record at every restart.
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        // Each stream thread's partition assignor reads Streams' settings back from the main consumer's configs, which
        // carry only consumer settings (Kafka 4.3); without this copy Kafka warned once per thread. The consumer
        // itself ignores the key.
        props.put(StreamsConfig.mainConsumerPrefix(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG), true);
        // A store, changelog or repartition topic left to a generated name would change name when the topology
        // changes, losing its state or its records in flight at an upgrade: Kafka Streams refuses such a topology.
        props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        // The handlers keep no rejected value longer than the input limit (see ScrubbedRejections).
        props.put(InputLimits.MAX_RECORD_BYTES_CONFIG, String.valueOf(config.pipeline().input().maxRecordBytes()));
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.rejectedInput.name());
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        props.put(BoundedRocksDbMemory.MEMORY_BYTES_CONFIG, String.valueOf(config.rocksDbMemoryBytes()));
        // A task reads many topics, most of them empty at any moment (node events, continuation events, the delay
        // tiers, the re-keying topics); with the default (0) Kafka Streams checks, and formats a message about, every
        // empty partition before each record (17 % of the stream thread in the profile, docs/benchmarks.md), and
        // waits for their lag. No stage needs records ordered by time across partitions: each task's state is its
        // own, and the analytics windows take late records within their grace.
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // Two stream threads: the classification tasks and the analytics' merge tasks run side by side (measured in
        // docs/benchmarks.md: 28 % more throughput than one thread on two cores; no gain without the analytics).
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, DEFAULT_STREAM_THREADS);
        // Back in seconds after a crash: a static member (a name kept in the data directory) restarted takes its
        // partitions back at once instead of waiting out its dead self's session (45 s by Kafka's default); a member
        // that does not come back loses them after 6 s. With several instances, a standby of every task is kept warm
        // on another, so the one that takes a task over does not restore it from the changelog first.
        props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, InstanceName.of(config.dataDir()));
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, DEFAULT_SESSION_TIMEOUT_MS);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, DEFAULT_SESSION_TIMEOUT_MS / 3);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        // Every processor node timed into the timings /metrics reads (StageTimingMeters); the topology is built with
        // these settings, which is the only way Kafka Streams applies a processor wrapper.
        if (config.metrics().stageTimings()) {
            props.put(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, StageTimingWrapper.class);
            props.put(StageTimings.CONFIG, new StageTimings());
        }
        if (config.replicationFactor() > 0) {
            props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.replicationFactor());
        }
        props.putAll(clientConfig);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        return props;
    }
}

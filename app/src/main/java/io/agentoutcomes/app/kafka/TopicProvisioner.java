package io.agentoutcomes.app.kafka;

import io.agentoutcomes.topology.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.TopologyDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics the service needs, with their cleanup policy, and waits until every partition of a new
 * topic answers a {@code listOffsets}: an idempotent producer writing to a partition whose leader is not known
 * yet can lose a batch (KAFKA-15591), so nothing is produced before that.
 */
public final class TopicProvisioner {
    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    /** A topic to have: name, partitions, cleanup, and any other topic configs. */
    public record TopicSpec(String name, int partitions, Topics.Cleanup cleanup, Map<String, String> configs) {
        public TopicSpec(String name, int partitions, Topics.Cleanup cleanup) {
            this(name, partitions, cleanup, Map.of());
        }
    }

    /**
     * The internal topics Kafka Streams would create for a topology (store changelogs, repartition topics), so they
     * can be created, and waited for, before Kafka Streams starts writing to them: Kafka Streams' own creation does
     * not wait for the new partitions, and its exactly-once producer then meets the new-partition bug above.
     */
    public static List<TopicSpec> internalTopicsOf(TopologyDescription topology, String applicationId, int partitions) {
        Set<String> stores = new TreeSet<>();
        Set<String> repartition = new TreeSet<>();
        for (TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    stores.addAll(processor.stores());
                } else if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    source.topicSet().stream().filter(t -> t.endsWith("-repartition")).forEach(repartition::add);
                }
            }
        }
        List<TopicSpec> specs = new ArrayList<>();
        stores.forEach(store -> specs.add(new TopicSpec(applicationId + "-" + store + "-changelog", partitions,
                Topics.Cleanup.COMPACT)));
        repartition.forEach(topic -> specs.add(new TopicSpec(applicationId + "-" + topic, partitions, Topics.Cleanup.DELETE,
                Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1"))));
        return specs;
    }

    private TopicProvisioner() {
    }

    /** The pipeline's topics at the configured partition count. */
    public static List<TopicSpec> specsOf(Topics topics, int partitions) {
        return topics.all().stream().map(t -> new TopicSpec(t.name(), partitions, t.cleanup())).toList();
    }

    /**
     * The specs whose topics do not exist, or that the client's principal may not describe (with ACLs, a topic it
     * cannot describe is one it cannot use): a check for clusters whose topics are created elsewhere.
     */
    public static List<TopicSpec> missing(Map<String, Object> adminConfig, List<TopicSpec> specs) {
        try (Admin admin = Admin.create(adminConfig)) {
            Set<String> existing = admin.listTopics().names().get();
            return specs.stream().filter(s -> !existing.contains(s.name())).toList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while listing topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not list the topics: " + e.getCause(), e.getCause());
        }
    }

    /** A topic as an operator creates it: {@code name (4 partitions, compact)}. */
    public static String describe(TopicSpec spec) {
        return spec.name() + " (" + spec.partitions() + " partitions, " + configsOf(spec).entrySet().stream()
                .sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue()).toList() + ")";
    }

    /**
     * With {@code create}, {@link #ensure}; without, a refusal to start naming every topic that does not exist, as an
     * operator would create it (topic.create=false: topics managed elsewhere).
     */
    public static void provision(Map<String, Object> adminConfig, List<TopicSpec> specs, short replicationFactor,
                                 boolean create) {
        if (create) {
            ensure(adminConfig, specs, replicationFactor);
            return;
        }
        List<TopicSpec> missing = missing(adminConfig, specs);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Refusing to start: topic.create=false and " + missing.size() + " of the "
                    + "topics the service needs do not exist (or its principal may not describe them): "
                    + String.join(", ", missing.stream().map(TopicProvisioner::describe).toList())
                    + ". Create them, or set topic.create=true to have the service create them");
        }
    }

    /**
     * Creates the topics that do not exist yet and waits until they are ready.
     *
     * @param replicationFactor -1 for the broker's default
     */
    public static void ensure(Map<String, Object> adminConfig, List<TopicSpec> specs, short replicationFactor) {
        try (Admin admin = Admin.create(adminConfig)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = specs.stream().filter(s -> !existing.contains(s.name()))
                    .map(s -> new NewTopic(s.name(), Optional.of(s.partitions()),
                            replicationFactor < 0 ? Optional.empty() : Optional.of(replicationFactor))
                            .configs(configsOf(s)))
                    .toList();
            if (missing.isEmpty()) {
                return;
            }
            try {
                admin.createTopics(missing).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            LOG.info("Created topics {}", missing.stream().map(NewTopic::name).toList());
            awaitReady(admin, missing.stream().map(NewTopic::name).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not create the service's topics: " + e.getCause(), e.getCause());
        }
    }

    private static Map<String, String> configsOf(TopicSpec spec) {
        Map<String, String> configs = new HashMap<>(spec.configs());
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, spec.cleanup() == Topics.Cleanup.COMPACT
                ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE);
        return configs;
    }

    private static void awaitReady(Admin admin, List<String> names) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames().get();
                Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
                described.values().forEach(d -> d.partitions().forEach(p ->
                        partitions.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
                admin.listOffsets(partitions).all().get();
                return;
            } catch (ExecutionException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("Topics " + names + " were created but their partitions did not become ready in "
                + READY_TIMEOUT.toSeconds() + " s: " + last);
    }
}

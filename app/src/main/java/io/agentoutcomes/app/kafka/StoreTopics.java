package io.agentoutcomes.app.kafka;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.TopologyDescription;

/**
 * Which source topics feed the tasks that hold each state store: a store's partition {@code p} lives in the task of
 * partition {@code p} of those topics, so the partitions of a store an instance holds are those of these topics in
 * its assignment.
 */
public final class StoreTopics {
    private StoreTopics() {
    }

    /** Store name to the full names of the source topics of its sub-topology (repartition topics with the application id). */
    public static Map<String, Set<String>> of(TopologyDescription topology, String applicationId) {
        Map<String, Set<String>> storeTopics = new HashMap<>();
        for (TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
            Set<String> stores = new HashSet<>();
            Set<String> topics = new HashSet<>();
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    stores.addAll(processor.stores());
                } else if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    source.topicSet().forEach(topic -> topics.add(
                            topic.endsWith("-repartition") ? applicationId + "-" + topic : topic));
                }
            }
            stores.forEach(store -> storeTopics.computeIfAbsent(store, s -> new HashSet<>()).addAll(topics));
        }
        storeTopics.replaceAll((store, topics) -> Set.copyOf(topics));
        return Map.copyOf(storeTopics);
    }
}

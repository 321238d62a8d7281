package io.agentoutcomes.topology.provider;

import io.agentoutcomes.topology.fallback.FallbackChains;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Partitions the gate's inputs (retries and tallies, keyed by scope) so that every scope of a fallback chain meets in
 * one partition, so one gate task: the scopes joined by declared chains are partitioned by the smallest key among them,
 * every other scope by its own key exactly as Kafka's default partitioner does (murmur2 of the UTF-8 key). Without
 * chains nothing moves.
 */
final class ChainPartitioner<V> implements StreamPartitioner<String, V> {
    private final Map<String, String> groups;

    ChainPartitioner(FallbackChains chains, ProviderScope.By by) {
        this.groups = groups(chains, by);
    }

    /** Each scope named by a general chain, and the key its chains' scopes are partitioned by. */
    static Map<String, String> groups(FallbackChains chains, ProviderScope.By by) {
        Map<String, String> parent = new HashMap<>();
        for (FallbackChains.Chain chain : chains.all(FallbackChains.Kind.GENERAL)) {
            String from = key(chain.from(), by);
            for (FallbackChains.Model to : chain.to()) {
                String a = root(parent, from);
                String b = root(parent, key(to, by));
                parent.put(a.compareTo(b) <= 0 ? b : a, a.compareTo(b) <= 0 ? a : b);
            }
        }
        Map<String, String> groups = new HashMap<>();
        for (String scope : parent.keySet()) {
            groups.put(scope, root(parent, scope));
        }
        return groups;
    }

    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, V value, int numPartitions) {
        String by = groups.getOrDefault(key, key);
        return Optional.of(Set.of(Utils.toPositive(Utils.murmur2(by.getBytes(StandardCharsets.UTF_8))) % numPartitions));
    }

    String groupOf(String key) {
        return groups.getOrDefault(key, key);
    }

    private static String key(FallbackChains.Model model, ProviderScope.By by) {
        return new ProviderScope(model.provider(), by == ProviderScope.By.PROVIDER ? null : model.model()).key();
    }

    private static String root(Map<String, String> parent, String scope) {
        String at = scope;
        while (parent.containsKey(at) && !parent.get(at).equals(at)) {
            at = parent.get(at);
        }
        parent.putIfAbsent(scope, scope);
        return at;
    }
}

package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.fallback.FallbackChains.Chain;
import io.agentoutcomes.topology.fallback.FallbackChains.Kind;
import io.agentoutcomes.topology.fallback.FallbackChains.Model;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class ChainPartitionerTest {
    private static final FallbackChains CHAINS = new FallbackChains(List.of(
            new Chain(Kind.GENERAL, new Model("openai", "gpt-4o"), List.of(new Model("anthropic", "claude-sonnet-4"))),
            new Chain(Kind.GENERAL, new Model("anthropic", "claude-sonnet-4"), List.of(new Model("google", "gemini-2.5-pro"))),
            new Chain(Kind.CONTEXT, new Model("openai", "gpt-4o-mini"), List.of(new Model("openai", "gpt-4.1")))));

    private static String key(String provider, String model) {
        return new ProviderScope(provider, model).key();
    }

    @Test
    void everyScopeJoinedByGeneralChainsMeetsInOnePartition() {
        ChainPartitioner<Object> partitioner = new ChainPartitioner<>(CHAINS, ProviderScope.By.PROVIDER_MODEL);

        for (int partitions : List.of(2, 3, 4, 12, 50)) {
            Optional<Set<Integer>> first = partitioner.partitions("t", key("openai", "gpt-4o"), null, partitions);
            assertThat(partitioner.partitions("t", key("anthropic", "claude-sonnet-4"), null, partitions)).isEqualTo(first);
            assertThat(partitioner.partitions("t", key("google", "gemini-2.5-pro"), null, partitions)).isEqualTo(first);
        }
        assertThat(partitioner.groupOf(key("openai", "gpt-4o"))).isEqualTo(key("anthropic", "claude-sonnet-4"));
    }

    @Test
    void aScopeOfNoGeneralChainIsPartitionedAsKafkasDefaultPartitionerDoes() {
        ChainPartitioner<Object> partitioner = new ChainPartitioner<>(CHAINS, ProviderScope.By.PROVIDER_MODEL);

        for (String key : List.of(key("openai", "gpt-4o-mini"), key("openai", "gpt-4.1"), key("acme", "m1"), "acme")) {
            byte[] bytes = new StringSerializer().serialize("t", key);
            assertThat(partitioner.partitions("t", key, null, 4)).contains(Set.of(BuiltInPartitioner.partitionForKey(bytes, 4)));
        }
    }
}

package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Attribution read from the fields of every JSON dialect: leniently, bounded, never a reason to refuse a result. */
class JsonAttributionTest {
    /** Seed 000 names no agent: the header does. */
    private static final String IDENTITY = "\"taskId\": \"t-1\"";

    @Test
    void aSeed000EnvelopeNamesItsTenantTeamUserAndTagsInCamelCase() {
        AgentResult result = agentResult("t-1", "{" + IDENTITY + ", \"status\": \"success\", \"data\": {},"
                + " \"tenantId\": \"acme\", \"team\": \"search\", \"userId\": \"u-1\", \"tags\": [\"batch\", \"eu\"]}", headers("agent-id", "summarizer"));
        assertThat(result.getDialect()).isEqualTo(Dialect.VAT_ENVELOPE);
        assertThat(result.getAttribution()).isEqualTo(new Attribution("acme", "search", "u-1", List.of("batch", "eu")));
    }

    @Test
    void aSeed003FlatAgentsResultNamesThemInSnakeCase() {
        AgentResult result = agentResult("t-1", "{\"agent_id\": \"summarizer\", \"output\": {}, \"usage\": {\"input_tokens\": 1},"
                + " \"tenant_id\": \"acme\", \"user_id\": 42, \"tags\": \"batch, eu\"}", headers());
        assertThat(result.getDialect()).isEqualTo(Dialect.FLATAGENTS);
        assertThat(result.getAttribution()).isEqualTo(new Attribution("acme", null, "42", List.of("batch", "eu")));
    }

    @Test
    void aSeed004ReviewResultNamesThemInItsMetadataAndTheTopLevelWins() {
        AgentResult result = agentResult("t-1", "{\"agentId\": \"typescript\", \"status\": \"skipped\", \"reason\": \"n/a\","
                + " \"metrics\": {\"durationMs\": 1, \"filesProcessed\": 0}, \"team\": \"top\","
                + " \"metadata\": {\"tenant_id\": \"acme\", \"team\": \"inner\", \"tags\": [\"review\"]}}", headers());
        assertThat(result.getDialect()).isEqualTo(Dialect.REVIEW_AGENT);
        assertThat(result.getAttribution()).isEqualTo(new Attribution("acme", "top", null, List.of("review")));
    }

    @Test
    void valuesOfOtherTypesAreLeftOutAndLongOnesCutNeverRefused() {
        String longTenant = "t".repeat(300);
        AgentResult result = agentResult("t-1", "{" + IDENTITY + ", \"status\": \"success\", \"data\": {},"
                + " \"tenantId\": \"" + longTenant + "\", \"team\": {\"name\": \"x\"}, \"userId\": \"  \","
                + " \"tags\": [\"a|b\", 7, null, {}, \"a|b\", \"\"]}", headers("agent-id", "summarizer"));
        assertThat(result.getAttribution()).isEqualTo(new Attribution("t".repeat(128), null, null, List.of("a/b", "7")));
    }

    @Test
    void aResultThatNamesNoneHasNoAttributionAndHeadersAreLeftForLater() {
        AgentResult result = agentResult("t-1", "{" + IDENTITY + ", \"status\": \"success\", \"data\": {}}",
                headers("agent-id", "summarizer", "tenant-id", "acme"));
        assertThat(result.getAttribution()).isNull();
    }
}

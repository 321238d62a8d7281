package io.agentoutcomes.topology.analytics;

import static io.agentoutcomes.topology.StageDriver.T0;
import static io.agentoutcomes.topology.StageDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The attribution dimensions through the whole pipeline: from headers and values to the window topics, bounded. */
class AttributionAnalyticsTest {
    private StageDriver pipeline;
    private TestInputTopic<String, AgentResult> results;
    private TestOutputTopic<String, AgentMetrics> minutes;
    private TestOutputTopic<String, AgentMetrics> hours;
    private int sequence;

    private void start(Set<Dimension> keyed, int maxValues) {
        AnalyticsSettings analytics = new AnalyticsSettings(Duration.ofSeconds(1), Duration.ofSeconds(60), 1000, true)
                .withDimensions(keyed, maxValues);
        pipeline = StageDriver.configured((topics, settings) -> AgentOutcomesTopology.build(topics,
                PipelineSettings.builder().analytics(analytics).build(), settings), topics -> new Properties());
        results = pipeline.input(pipeline.topics.agentResults);
        minutes = pipeline.output(pipeline.topics.agentMetrics1m);
        hours = pipeline.output(pipeline.topics.agentMetrics1h);
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void publish(Attribution attribution, Headers headers, String cost, long tokens) {
        String id = "r-" + sequence++;
        AgentResult result = AgentResult.newBuilder().setResultId(id).setAgentId("summarizer").setTaskId("task-" + id)
                .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini").setProvider("openai")
                        .setUsage(Usage.newBuilder().setInputTokens(tokens).setOutputTokens(0L).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal(cost).setScale(12)))
                                .setSource(CostSource.REPORTED).build())
                        .build())
                .setAttribution(attribution)
                .setOutcome(Success.newBuilder().build())
                .build();
        results.pipeInput(new TestRecord<>(result.getTaskId(), result, headers, T0.plusSeconds(sequence)));
    }

    private static Attribution tenant(String tenant) {
        return new Attribution(tenant, null, null, List.of());
    }

    /** The latest aggregate of each key of a window topic's output. */
    private static Map<String, AgentMetrics> latest(List<KeyValue<String, AgentMetrics>> records) {
        return records.stream().collect(Collectors.toMap(kv -> kv.key, kv -> kv.value, (a, b) -> b));
    }

    private static String key(String size, String... dimensions) {
        return size + "|" + String.format("%013d", T0.toEpochMilli()) + "|summarizer|gpt-4o-mini|openai"
                + (dimensions.length == 0 ? "" : "|" + String.join("|", dimensions));
    }

    @Test
    void twoTenantsEachSumExactlyWhetherNamedByHeaderOrByTheResult() {
        start(Dimension.DEFAULTS, 1000);
        publish(null, headers(HeaderNames.TENANT_ID, "acme"), "0.000000100001", 100);
        publish(tenant("acme"), new RecordHeaders(), "0.2", 20);
        publish(tenant("globex"), headers(HeaderNames.TENANT_ID, "acme"), "0.000000000003", 7);
        publish(null, new RecordHeaders(), "1", 1);
        pipeline.advance(Duration.ofSeconds(1));

        Map<String, AgentMetrics> windows = latest(minutes.readKeyValuesToList());
        assertThat(windows).containsOnlyKeys(key("1m", "acme"), key("1m", "globex"), key("1m", "unknown"));
        AgentMetrics acme = windows.get(key("1m", "acme"));
        assertThat(acme.getTenant()).isEqualTo("acme");
        assertThat(acme.getCostTotal()).isEqualTo(new BigDecimal("0.200000100001"));
        assertThat(acme.getInputTokens()).isEqualTo(120);
        assertThat(acme.getCompletions()).isEqualTo(Map.of("SUCCESS", 2L));
        // the result's own tenant wins over the header
        assertThat(windows.get(key("1m", "globex")).getCostTotal()).isEqualTo(new BigDecimal("0.000000000003"));
        assertThat(windows.get(key("1m", "globex")).getInputTokens()).isEqualTo(7);
        assertThat(windows.get(key("1m", "unknown")).getCostTotal()).isEqualTo(new BigDecimal("1.000000000000"));
        assertThat(latest(hours.readKeyValuesToList()).get(key("1h", "acme")).getCostTotal())
                .isEqualTo(new BigDecimal("0.200000100001"));
        assertThat(pipeline.<String, AgentMetrics>entries(WindowMerger.WINDOWS_STORE))
                .filteredOn(kv -> kv.key.startsWith("total|"))
                .extracting(kv -> kv.value.getTenant(), kv -> kv.value.getCostTotal())
                .containsExactlyInAnyOrder(tuple("acme", new BigDecimal("0.200000100001")),
                        tuple("globex", new BigDecimal("0.000000000003")),
                        tuple("unknown", new BigDecimal("1.000000000000")));
    }

    @Test
    void tenantsPastTheCapOfTheirHourCountUnderOtherAndNothingIsLost() {
        start(Dimension.DEFAULTS, 2);
        publish(tenant("a"), new RecordHeaders(), "1", 1);
        publish(tenant("b"), new RecordHeaders(), "2", 2);
        publish(tenant("c"), new RecordHeaders(), "4", 4);
        publish(tenant("a"), new RecordHeaders(), "8", 8);
        publish(tenant("d"), new RecordHeaders(), "16", 16);
        publish(null, new RecordHeaders(), "32", 32);
        pipeline.advance(Duration.ofSeconds(1));

        Map<String, AgentMetrics> windows = latest(minutes.readKeyValuesToList());
        assertThat(windows).containsOnlyKeys(key("1m", "a"), key("1m", "b"), key("1m", "_other"), key("1m", "unknown"));
        assertThat(windows.get(key("1m", "a")).getCostTotal()).isEqualByComparingTo("9");
        assertThat(windows.get(key("1m", "b")).getCostTotal()).isEqualByComparingTo("2");
        assertThat(windows.get(key("1m", "_other")).getCostTotal()).isEqualByComparingTo("20");
        assertThat(windows.get(key("1m", "_other")).getInputTokens()).isEqualTo(20);
        // unknown never counts against the cap
        assertThat(windows.get(key("1m", "unknown")).getCostTotal()).isEqualByComparingTo("32");
    }

    @Test
    void keyedByTheCoreDimensionsOnlyTheKeysAndAggregatesReadAsBeforeAttribution() {
        start(Dimension.CORE, 1000);
        publish(tenant("acme"), headers(HeaderNames.TEAM, "search"), "0.5", 5);
        publish(null, new RecordHeaders(), "0.25", 5);
        pipeline.advance(Duration.ofSeconds(1));

        Map<String, AgentMetrics> windows = latest(minutes.readKeyValuesToList());
        assertThat(windows).containsOnlyKeys(key("1m"));
        AgentMetrics window = windows.get(key("1m"));
        assertThat(window.getCostTotal()).isEqualByComparingTo("0.75");
        assertThat(window.getTenant()).isNull();
        assertThat(window.getTeam()).isNull();
        assertThat(window.getUser()).isNull();
        assertThat(window.getTag()).isNull();
    }

    @Test
    void everyAttributionDimensionKeysTheWindowsAndATagCountsUnderTheResultsFirstTagOnly() {
        start(EnumSet.allOf(Dimension.class), 1000);
        publish(new Attribution("acme", null, "u-1", List.of("batch", "eu")),
                headers(HeaderNames.TEAM, "search", HeaderNames.TAGS, "ignored"), "3", 3);
        publish(null, headers(HeaderNames.TENANT_ID, "acme", HeaderNames.TEAM, "search", HeaderNames.USER_ID, "u-1",
                HeaderNames.TAGS, " batch , nightly"), "5", 5);
        pipeline.advance(Duration.ofSeconds(1));

        Map<String, AgentMetrics> windows = latest(minutes.readKeyValuesToList());
        assertThat(windows).containsOnlyKeys(key("1m", "acme", "search", "u-1", "batch"));
        AgentMetrics window = windows.get(key("1m", "acme", "search", "u-1", "batch"));
        assertThat(window.getCostTotal()).isEqualByComparingTo("8");
        assertThat(List.of(window.getTenant(), window.getTeam(), window.getUser(), window.getTag()))
                .containsExactly("acme", "search", "u-1", "batch");
    }

    @Test
    void theTeamAloneKeysWithTheTenantLeftEmptyInTheKey() {
        start(EnumSet.of(Dimension.TEAM), 1000);
        publish(tenant("acme"), headers(HeaderNames.TEAM, "search"), "1", 1);
        pipeline.advance(Duration.ofSeconds(1));

        assertThat(latest(minutes.readKeyValuesToList())).containsOnlyKeys(key("1m", "", "search"));
    }

    @Test
    void aJsonResultIsAttributedByItsFieldsAndItsHeadersAndClassifiedWithIt() {
        start(EnumSet.of(Dimension.TENANT, Dimension.TEAM), 1000);
        TestInputTopic<byte[], byte[]> json = pipeline.bytesInput(pipeline.topics.agentResultsJson.name());
        TestOutputTopic<String, ClassifiedOutcome> classified = pipeline.output(pipeline.topics.outcomesClassified);
        json.pipeInput(StageDriver.textRecord("t-1", "{\"taskId\": \"t-1\", \"status\": \"success\", \"data\": {},"
                        + " \"team\": \"search\", \"execution\": {\"model\": \"gpt-4o-mini\", \"provider\": \"openai\","
                        + " \"cost\": 0.125}}",
                headers(HeaderNames.AGENT_ID, "summarizer", HeaderNames.TENANT_ID, " acme ", HeaderNames.TEAM, "ignored"),
                T0.plusSeconds(1)));
        pipeline.advance(Duration.ofSeconds(1));

        assertThat(classified.readValuesToList()).extracting(outcome -> outcome.getAgentResult().getAttribution())
                .containsExactly(new Attribution("acme", "search", null, List.of()));
        Map<String, AgentMetrics> windows = latest(minutes.readKeyValuesToList());
        assertThat(windows).containsOnlyKeys(key("1m", "acme", "search"));
        assertThat(windows.get(key("1m", "acme", "search")).getCostTotal()).isEqualByComparingTo("0.125");
    }
}

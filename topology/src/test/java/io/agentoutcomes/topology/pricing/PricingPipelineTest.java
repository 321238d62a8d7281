package io.agentoutcomes.topology.pricing;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.ResultsPipeline;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.analytics.Figures;
import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Results through the whole pipeline: tokens without a cost come out priced from the shipped table and marked
 * COMPUTED, a reported cost is left as reported, and the aggregates keep the two apart. Expected amounts are worked
 * out by hand from the shipped table's gpt-4o-mini prices (input 0.15, cached input 0.075, output 0.6 USD per million).
 */
class PricingPipelineTest {
    private final ResultsPipeline pipeline = new ResultsPipeline();
    private final TestInputTopic<String, AgentResult> results = pipeline.results;
    private final TestOutputTopic<String, ClassifiedOutcome> classified = pipeline.classified;

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void publish(String id, Usage usage, Cost cost) {
        results.pipeInput("task-" + id, ResultsPipeline.gpt4oMini(id, "task-" + id, usage, cost), T0);
    }

    private static Usage usage(long input, long output, long cached) {
        return Usage.newBuilder().setInputTokens(input).setOutputTokens(output).setCacheReadTokens(cached).build();
    }

    private static Cost reported(String total) {
        return Cost.newBuilder().setTotal(Money.toBytes(usd(total))).setSource(CostSource.REPORTED).build();
    }

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount).setScale(Money.SCALE);
    }

    @Test
    void tokensWithoutACostArePricedAndMarkedComputed() {
        publish("r-1", usage(10_000, 2_000, 4_000), null);
        Cost cost = classified.readValue().getAgentResult().getExecution().getCost();
        // 6000 uncached input x 0.15 + 4000 cached x 0.075 + 2000 output x 0.6, per million
        assertThat(cost).isEqualTo(Cost.newBuilder().setInput(Money.toBytes(usd("0.0009"))).setOutput(Money.toBytes(usd("0.0012")))
                .setCacheRead(Money.toBytes(usd("0.0003"))).setCacheWrite(null).setTotal(Money.toBytes(usd("0.0024")))
                .setSource(CostSource.COMPUTED).build());
        assertThat(pipeline.pricingCount(PriceResults.COMPUTED)).isEqualTo(1.0);
    }

    /** A flatagents result published as JSON, through ingestion, pricing and classification. */
    private ExecutionMetadata publishJson(String json) {
        pipeline.driver.bytesInput(pipeline.driver.topics.agentResultsJson.name()).pipeInput(StageDriver.textRecord("task-j", json,
                StageDriver.headers("agent-id", "thinker", "result-id", "j-1"), T0));
        return classified.readValue().getAgentResult().getExecution();
    }

    @Test
    void geminiThoughtsArePricedAsOutputBesideTheCandidates() {
        // gemini-2.5-flash: input 0.3, output 2.5 USD per million; 7 000 thoughts + 5 000 candidates = 12 000 output
        ExecutionMetadata execution = publishJson("{\"content\":\"g\",\"usage\":{\"input_tokens\":10000,"
                + "\"output_tokens\":5000},\"provider_data\":{\"provider\":\"gemini\",\"model\":\"gemini-2.5-flash\","
                + "\"usageMetadata\":{\"promptTokenCount\":10000,\"candidatesTokenCount\":5000,\"thoughtsTokenCount\":7000}}}");
        assertThat(execution.getUsage().getOutputTokens()).isEqualTo(12_000L);
        // 10 000 x 0.3 + 12 000 x 2.5, per million: 0.003 + 0.03 (without the thoughts, 0.0155: under-priced)
        assertThat(Money.toDecimal(execution.getCost().getOutput())).isEqualByComparingTo("0.03");
        assertThat(Money.toDecimal(execution.getCost().getTotal())).isEqualByComparingTo("0.033");
        assertThat(execution.getCost().getSource()).isEqualTo(CostSource.COMPUTED);
    }

    @Test
    void openAiReasoningInsideTheOutputIsPricedOnceAsOutput() {
        // o3-mini: input 1.1, output 4.4 USD per million; 1 024 of the 1 200 output tokens are reasoning, priced once
        ExecutionMetadata execution = publishJson("{\"content\":\"o\",\"usage\":{\"input_tokens\":1000,"
                + "\"output_tokens\":1200,\"completion_tokens_details\":{\"reasoning_tokens\":1024}},"
                + "\"provider_data\":{\"provider\":\"openai\",\"model\":\"o3-mini\"}}");
        assertThat(execution.getUsage().getReasoningTokens()).isEqualTo(1_024L);
        // 1 000 x 1.1 + 1 200 x 4.4, per million
        assertThat(Money.toDecimal(execution.getCost().getTotal())).isEqualByComparingTo("0.00638");
        assertThat(Money.toDecimal(execution.getCost().getOutput())).isEqualByComparingTo("0.00528");
    }

    @Test
    void aReportedCostIsKeptAndAMismatchBeyondTheToleranceIsCounted() {
        publish("r-1", usage(1_000_000, 0, 0), reported("0.15"));
        publish("r-2", usage(1_000_000, 0, 0), reported("0.1515"));
        publish("r-3", usage(1_000_000, 0, 0), reported("0.2"));
        List<Cost> costs = classified.readValuesToList().stream().map(o -> o.getAgentResult().getExecution().getCost()).toList();
        assertThat(costs).containsExactly(reported("0.15"), reported("0.1515"), reported("0.2"));
        // within 1 % of the computed 0.15: r-1 and r-2; beyond: r-3
        assertThat(pipeline.pricingCount(PriceResults.MISMATCH)).isEqualTo(1.0);
        assertThat(pipeline.pricingCount(PriceResults.COMPUTED)).isEqualTo(0.0);
    }

    @Test
    void aModelTheTableDoesNotKnowStaysWithoutACostAndIsCounted() {
        results.pipeInput("task-x", AgentResult.newBuilder().setResultId("x").setAgentId("summarizer").setTaskId("task-x")
                .setExecution(ExecutionMetadata.newBuilder().setModel("in-house-llm").setProvider("acme")
                        .setUsage(usage(100, 10, 0)).build())
                .setOutcome(Success.newBuilder().build()).build(), T0);
        assertThat(classified.readValue().getAgentResult().getExecution().getCost()).isNull();
        assertThat(pipeline.pricingCount(PriceResults.UNPRICED)).isEqualTo(1.0);
    }

    @Test
    void theAggregatesKeepReportedAndComputedCostApart() {
        publish("r-1", usage(10_000, 2_000, 4_000), null);
        publish("r-2", usage(1_000_000, 0, 0), reported("0.2"));
        Figures.Tally tally = new Figures.Tally();
        classified.readValuesToList().forEach(tally::add);
        AgentMetrics metrics = tally.aggregates().iterator().next();
        assertThat(metrics.getCostComputed()).isEqualTo(usd("0.0024"));
        assertThat(metrics.getCostReported()).isEqualTo(usd("0.2"));
        assertThat(metrics.getCostTotal()).isEqualTo(usd("0.2024"));
    }
}

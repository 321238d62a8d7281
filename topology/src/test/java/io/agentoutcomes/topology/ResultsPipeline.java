package io.agentoutcomes.topology;

import static io.agentoutcomes.topology.StageDriver.T0;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.pricing.PriceResults;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;

/**
 * The whole pipeline fed agent results on {@code agent-results} and read on {@code outcomes-classified}, with the
 * pricing counters: the setup the tests of intake ({@code AgentResultIntakeTest}) and of pricing
 * ({@code PricingPipelineTest}) share.
 */
public final class ResultsPipeline implements AutoCloseable {
    private static final String PRICING = "stream-" + PriceResults.METRICS_SCOPE + "-metrics";

    public final StageDriver driver = StageDriver.pipeline();
    public final TestInputTopic<String, AgentResult> results = driver.input(driver.topics.agentResults);
    public final TestOutputTopic<String, ClassifiedOutcome> classified = driver.output(driver.topics.outcomesClassified);

    /**
     * A success of {@code summarizer} on OpenAI's {@code gpt-4o-mini-2024-07-18} (input 0.15, cached input 0.075,
     * output 0.6 USD per million in the shipped table) at {@link StageDriver#T0}, with this usage and cost (null: none).
     */
    public static AgentResult gpt4oMini(String resultId, String taskId, Usage usage, Cost cost) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("summarizer").setTaskId(taskId)
                .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini-2024-07-18").setProvider("openai")
                        .setTimestamp(T0.toEpochMilli()).setUsage(usage).setCost(cost).build())
                .setOutcome(Success.newBuilder().build()).build();
    }

    /** A pricing counter's total so far: {@link PriceResults#COMPUTED}, {@code MISMATCH} or {@code UNPRICED}. */
    public double pricingCount(String counter) {
        return driver.metric(PRICING, counter + "-total");
    }

    @Override
    public void close() {
        driver.close();
    }
}

package io.agentoutcomes.topology.pricing;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.analytics.TokenNormalizer;
import java.math.BigDecimal;
import java.time.Instant;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * Prices agent results that report tokens but no cost: the cost computed from the price table at the result's time
 * ({@code execution.timestamp}, else the record's) is set on it, marked {@code COMPUTED}; a reported cost is left as
 * it is. Sensors of {@value #METRICS_SCOPE} count: {@value #COMPUTED} (results priced here), {@value #UNPRICED}
 * (tokens but no cost, and a model the table does not know) and {@value #MISMATCH} (a reported total further from the
 * computed one than the tolerance allows).
 * <p>
 * A function the intake node of agent results calls after attribution ({@code AcceptInput}), not a node of its own:
 * one instance per processor (it holds that task's sensors); not thread-safe.
 */
public final class PriceResults {
    public static final String METRICS_SCOPE = "agent-outcomes-pricing";
    public static final String COMPUTED = "cost-computed";
    public static final String UNPRICED = "cost-unpriced";
    public static final String MISMATCH = "cost-mismatch";
    private static final String ENTITY = "agent-results";

    private final PricingSettings settings;
    private Sensor computed;
    private Sensor unpriced;
    private Sensor mismatch;

    public PriceResults(PricingSettings settings) {
        this.settings = settings;
    }

    /** Registers the sensors, with the processor that calls {@link #price}. */
    public void init(ProcessingContext context) {
        computed = context.metrics().addRateTotalSensor(METRICS_SCOPE, ENTITY, COMPUTED, Sensor.RecordingLevel.INFO);
        unpriced = context.metrics().addRateTotalSensor(METRICS_SCOPE, ENTITY, UNPRICED, Sensor.RecordingLevel.INFO);
        mismatch = context.metrics().addRateTotalSensor(METRICS_SCOPE, ENTITY, MISMATCH, Sensor.RecordingLevel.INFO);
    }

    /**
     * The result priced: the same instance unless a cost was computed for it (null stays null).
     *
     * @param timestamp the record's timestamp, the result's time when its execution states none
     */
    public AgentResult price(AgentResult result, long timestamp) {
        ExecutionMetadata execution = result == null ? null : result.getExecution();
        if (execution == null || execution.getUsage() == null) {
            return result;
        }
        TokenNormalizer.Tokens tokens = TokenNormalizer.normalize(execution.getUsage(), execution.getProvider());
        if (tokens.input() + tokens.output() + tokens.cacheRead() + tokens.cacheWrite() == 0) {
            return result;
        }
        Instant at = Instant.ofEpochMilli(execution.getTimestamp() != null ? execution.getTimestamp() : timestamp);
        ModelPrices prices = settings.table().find(execution.getProvider(), execution.getModel(), at).orElse(null);
        Cost reported = execution.getCost();
        if (reported != null) {
            // Only the total is compared: no parts built for a cost that is kept as reported.
            if (prices != null && differs(Money.toDecimal(reported.getTotal()), prices.total(tokens))) {
                mismatch.record();
            }
            return result;
        }
        if (prices == null) {
            unpriced.record();
            return result;
        }
        computed.record();
        return AgentResult.newBuilder(result)
                .setExecution(ExecutionMetadata.newBuilder(execution).setCost(prices.cost(tokens)).build()).build();
    }

    /** Whether the reported total is further from the computed one than the tolerance (relative to the computed). */
    boolean differs(BigDecimal reportedTotal, BigDecimal computedTotal) {
        return reportedTotal.subtract(computedTotal).abs().compareTo(computedTotal.multiply(settings.tolerance())) > 0;
    }
}

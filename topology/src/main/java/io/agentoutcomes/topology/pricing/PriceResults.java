package io.agentoutcomes.topology.pricing;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.analytics.TokenNormalizer;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Prices agent results that report tokens but no cost: the cost computed from the price table at the result's time
 * ({@code execution.timestamp}, else the record's) is set on it, marked {@code COMPUTED}; a reported cost is left as
 * it is. Sensors of {@value #METRICS_SCOPE} count: {@value #COMPUTED} (results priced here), {@value #UNPRICED}
 * (tokens but no cost, and a model the table does not know) and {@value #MISMATCH} (a reported total further from the
 * computed one than the tolerance allows).
 */
public final class PriceResults implements FixedKeyProcessor<String, AgentResult, AgentResult> {
    public static final String METRICS_SCOPE = "agent-outcomes-pricing";
    public static final String COMPUTED = "cost-computed";
    public static final String UNPRICED = "cost-unpriced";
    public static final String MISMATCH = "cost-mismatch";
    private static final String ENTITY = "agent-results";

    private final PricingSettings settings;
    private FixedKeyProcessorContext<String, AgentResult> context;
    private Sensor computed;
    private Sensor unpriced;
    private Sensor mismatch;

    public PriceResults(PricingSettings settings) {
        this.settings = settings;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, AgentResult> context) {
        this.context = context;
        computed = context.metrics().addRateTotalSensor(METRICS_SCOPE, ENTITY, COMPUTED, Sensor.RecordingLevel.INFO);
        unpriced = context.metrics().addRateTotalSensor(METRICS_SCOPE, ENTITY, UNPRICED, Sensor.RecordingLevel.INFO);
        mismatch = context.metrics().addRateTotalSensor(METRICS_SCOPE, ENTITY, MISMATCH, Sensor.RecordingLevel.INFO);
    }

    @Override
    public void process(FixedKeyRecord<String, AgentResult> record) {
        AgentResult result = record.value();
        ExecutionMetadata execution = result == null ? null : result.getExecution();
        if (execution == null || execution.getUsage() == null) {
            context.forward(record);
            return;
        }
        TokenNormalizer.Tokens tokens = TokenNormalizer.normalize(execution.getUsage(), execution.getProvider());
        if (tokens.input() + tokens.output() + tokens.cacheRead() + tokens.cacheWrite() == 0) {
            context.forward(record);
            return;
        }
        Instant at = Instant.ofEpochMilli(execution.getTimestamp() != null ? execution.getTimestamp() : record.timestamp());
        Optional<ModelPrices> prices = settings.table().find(execution.getProvider(), execution.getModel(), at);
        Cost reported = execution.getCost();
        if (reported != null) {
            // Only the total is compared: no parts built for a cost that is kept as reported.
            prices.filter(p -> differs(Money.toDecimal(reported.getTotal()), p.total(tokens))).ifPresent(p -> mismatch.record());
            context.forward(record);
        } else if (prices.isEmpty()) {
            unpriced.record();
            context.forward(record);
        } else {
            computed.record();
            context.forward(record.withValue(AgentResult.newBuilder(result)
                    .setExecution(ExecutionMetadata.newBuilder(execution).setCost(prices.get().cost(tokens)).build()).build()));
        }
    }

    /** Whether the reported total is further from the computed one than the tolerance (relative to the computed). */
    boolean differs(BigDecimal reportedTotal, BigDecimal computedTotal) {
        return reportedTotal.subtract(computedTotal).abs().compareTo(computedTotal.multiply(settings.tolerance())) > 0;
    }
}

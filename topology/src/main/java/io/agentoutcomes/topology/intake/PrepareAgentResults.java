package io.agentoutcomes.topology.intake;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.topology.attribution.AttributeResults;
import io.agentoutcomes.topology.pricing.PriceResults;
import io.agentoutcomes.topology.pricing.PricingSettings;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * An agent result attributed ({@link AttributeResults}) and then priced ({@link PriceResults}) as it is accepted, so
 * that every stage after intake (and every reader of its topics) sees one attribution and one cost.
 */
final class PrepareAgentResults implements IntakeStep<AgentResult> {
    private final PriceResults pricing;

    PrepareAgentResults(PricingSettings settings) {
        this.pricing = new PriceResults(settings);
    }

    @Override
    public void init(ProcessingContext context) {
        pricing.init(context);
    }

    @Override
    public AgentResult apply(AgentResult value, Headers headers, long timestamp) {
        return pricing.price(AttributeResults.attribute(value, headers), timestamp);
    }
}

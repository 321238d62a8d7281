package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.pricing.PriceTable;
import io.agentoutcomes.topology.pricing.PricingSettings;
import java.math.BigDecimal;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef.Type;

/** The price table and the tolerance of a reported cost (docs/analytics.md, "Prices"), a stage's settings group. */
public final class PricingConfig implements StageConfig<PricingSettings> {
    public static final String PRICING_FILE = "pricing.file";
    public static final String PRICING_MISMATCH_TOLERANCE = "pricing.mismatch.tolerance";

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.ANALYTICS)
                .define(PRICING_FILE, Type.STRING, "", null, "A price table in genai-prices' format (docs/analytics.md, \"Prices\") whose providers are looked up before the shipped table's. Empty: the shipped table only.")
                .define(PRICING_MISMATCH_TOLERANCE, Type.DOUBLE, PricingSettings.DEFAULT_TOLERANCE.doubleValue(), Check.between(0.0, 100.0), "How far a reported cost may be from the one computed from the price table, as a fraction of the computed cost, before agent_outcomes_cost_mismatch_total counts it.");
    }

    /** The price table (a user's file over the shipped one, if set) and the tolerance of a reported cost. */
    @Override
    public PricingSettings parse(ParsedConfig config) {
        String file = config.getString(PRICING_FILE).trim();
        return new PricingSettings(file.isEmpty() ? PriceTable.shipped() : PriceTable.withOverrides(Path.of(file)),
                BigDecimal.valueOf(config.getDouble(PRICING_MISMATCH_TOLERANCE)));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, PricingSettings value) {
        return pipeline.pricing(value);
    }
}

package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import io.agentoutcomes.topology.provider.ProviderScope;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The provider gate's settings (docs/classification.md, "Provider pacing and circuits"; its retry budget's are
 * {@link RetryBudgetConfig}'s), a stage's settings group.
 */
public final class ProviderGateConfig implements StageConfig<ProviderGateSettings> {
    public static final String PROVIDER_GATE_ENABLED = "provider.gate.enabled";
    public static final String PROVIDER_SCOPE = "provider.scope";
    public static final String PROVIDER_PACING_ENABLED = "provider.pacing.enabled";
    public static final String PROVIDER_PACING_DEFAULT_WINDOW_MS = "provider.pacing.default.window.ms";
    public static final String PROVIDER_CIRCUIT_ENABLED = "provider.circuit.enabled";
    public static final String PROVIDER_CIRCUIT_WINDOW_MS = "provider.circuit.window.ms";
    public static final String PROVIDER_CIRCUIT_MIN_OUTCOMES = "provider.circuit.min.outcomes";
    public static final String PROVIDER_CIRCUIT_FAILURE_RATE = "provider.circuit.failure.rate";
    public static final String PROVIDER_CIRCUIT_OPEN_MS = "provider.circuit.open.ms";
    public static final String PROVIDER_CIRCUIT_PROBES = "provider.circuit.probes";
    public static final String PROVIDER_CIRCUIT_ERROR_CODES = "provider.circuit.error.codes";
    public static final String PROVIDER_MAX_SCOPES = "provider.max.scopes";
    public static final String PROVIDER_IDLE_EXPIRY_MS = "provider.idle.expiry.ms";

    private static final ProviderGateSettings PROVIDER_DEFAULTS = ProviderGateSettings.defaults();
    private static final ProviderGateSettings.CircuitSettings CIRCUIT_DEFAULTS = PROVIDER_DEFAULTS.circuit();

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.PROVIDERS)
                .define(PROVIDER_GATE_ENABLED, Type.BOOLEAN, PROVIDER_DEFAULTS.enabled(), null, "Whether due retries pass a gate per provider (pacing and circuits) before retry-ready. Off: straight to retry-ready.")
                .define(PROVIDER_SCOPE, Type.STRING, EnumWords.word(PROVIDER_DEFAULTS.scope()), Check.oneOf(ProviderScope.By.class), "What a budget and a circuit are kept for: each provider and model, or each provider.")
                .define(PROVIDER_PACING_ENABLED, Type.BOOLEAN, PROVIDER_DEFAULTS.pacing(), null, "Whether a scope's retries are released no faster than the request budget its provider advertised last.")
                .define(PROVIDER_PACING_DEFAULT_WINDOW_MS, Type.LONG, PROVIDER_DEFAULTS.defaultWindow().toMillis(), Check.atLeast(1000), "The length of a request window whose name does not say (OpenAI's and Anthropic's request limits are per minute).")
                .define(PROVIDER_CIRCUIT_ENABLED, Type.BOOLEAN, CIRCUIT_DEFAULTS.enabled(), null, "Whether a scope's circuit opens when its failures cross the rate.")
                .define(PROVIDER_CIRCUIT_WINDOW_MS, Type.LONG, CIRCUIT_DEFAULTS.window().toMillis(), Check.atLeast(1000), "The sliding window a circuit's failure rate is taken over.")
                .define(PROVIDER_CIRCUIT_MIN_OUTCOMES, Type.INT, CIRCUIT_DEFAULTS.minOutcomes(), Check.atLeast(1), "Outcomes the window must hold before the rate can open the circuit.")
                .define(PROVIDER_CIRCUIT_FAILURE_RATE, Type.DOUBLE, CIRCUIT_DEFAULTS.failureRate(), Check.between(0.01, 1.0), "The share of the window's outcomes that, as failures of the circuit's codes, opens it.")
                .define(PROVIDER_CIRCUIT_OPEN_MS, Type.LONG, CIRCUIT_DEFAULTS.openFor().toMillis(), Check.notNegative(), "How long an open circuit holds the scope's retries before it half-opens.")
                .define(PROVIDER_CIRCUIT_PROBES, Type.INT, CIRCUIT_DEFAULTS.probes(), Check.between(1, 10_000), "Retries a half-open circuit releases as probes.")
                .define(PROVIDER_CIRCUIT_ERROR_CODES, Type.LIST, CIRCUIT_DEFAULTS.codes().stream().map(ErrorCode::value).sorted().toList(), Check.parsedBy("canonical error codes, e.g. llm-unavailable", v -> errorCodes((List<?>) v)), "The failures a circuit counts: the provider's own (unavailable, overloaded, 5xx, timeouts), not the caller's.")
                .define(PROVIDER_MAX_SCOPES, Type.INT, PROVIDER_DEFAULTS.maxScopes(), Check.between(1, 1_000_000), "Scopes one gate task keeps at most; retries of further ones pass ungated.")
                .define(PROVIDER_IDLE_EXPIRY_MS, Type.LONG, PROVIDER_DEFAULTS.idleExpiry().toMillis(), Check.atLeast(1000), "A scope with nothing held, a closed circuit and no evidence for this long is forgotten.")
                .declare(RetryBudgetConfig::declare);
    }

    /** The provider gate: pacing by advertised budgets and circuits per scope; its repartition topics as wide as the topics. */
    @Override
    public ProviderGateSettings parse(ParsedConfig config) {
        ProviderGateSettings.CircuitSettings circuit = new ProviderGateSettings.CircuitSettings(
                config.getBoolean(PROVIDER_CIRCUIT_ENABLED), Duration.ofMillis(config.getLong(PROVIDER_CIRCUIT_WINDOW_MS)),
                config.getInt(PROVIDER_CIRCUIT_MIN_OUTCOMES), config.getDouble(PROVIDER_CIRCUIT_FAILURE_RATE),
                Duration.ofMillis(config.getLong(PROVIDER_CIRCUIT_OPEN_MS)), config.getInt(PROVIDER_CIRCUIT_PROBES),
                errorCodes(config.getList(PROVIDER_CIRCUIT_ERROR_CODES)));
        ProviderScope.By scope = EnumWords.of(ProviderScope.By.class, config.getString(PROVIDER_SCOPE));
        return new ProviderGateSettings(config.getBoolean(PROVIDER_GATE_ENABLED), scope, config.getBoolean(PROVIDER_PACING_ENABLED),
                Duration.ofMillis(config.getLong(PROVIDER_PACING_DEFAULT_WINDOW_MS)), circuit,
                PROVIDER_DEFAULTS.signalInterval(), PROVIDER_DEFAULTS.checkInterval(), config.partitions(),
                config.getInt(PROVIDER_MAX_SCOPES), Duration.ofMillis(config.getLong(PROVIDER_IDLE_EXPIRY_MS)),
                RetryBudgetConfig.parse(config));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, ProviderGateSettings value) {
        return pipeline.providers(value);
    }

    /** Canonical error codes by their wire values; an unknown one is refused, naming it. */
    static Set<ErrorCode> errorCodes(List<?> values) {
        Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        for (Object value : values) {
            String code = String.valueOf(value).trim();
            codes.add(ErrorCode.fromValue(code).orElseThrow(() -> new IllegalArgumentException("no error code " + code)));
        }
        return codes;
    }
}

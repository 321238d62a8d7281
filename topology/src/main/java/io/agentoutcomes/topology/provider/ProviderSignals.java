package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ProviderSignal;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Tallies, per stream task and scope, the outcomes of agent results (successes, failures of the circuit's codes) and
 * the request windows a provider advertised last, and sends each scope's tally to the gate once per signal interval,
 * keyed by scope: one small record per scope and interval instead of one per outcome. The tally lives in memory: a
 * crash loses at most one interval of evidence, which only delays a circuit's change; no retry depends on it.
 */
final class ProviderSignals implements Processor<String, ClassifiedOutcome, String, ProviderSignal> {
    private final ProviderGateSettings settings;
    private final Set<String> failureCodes;
    private final Map<String, ProviderSignal> tallies = new HashMap<>();
    /**
     * The tallies by the names as results spell them (provider, then model or ""): most results are found here without
     * trimming, lower-casing or joining names, which costs allocations on every outcome.
     */
    private final Map<String, Map<String, ProviderSignal>> bySpelling = new HashMap<>();
    private int spellings;
    private ProcessorContext<String, ProviderSignal> context;
    private long from;

    ProviderSignals(ProviderGateSettings settings) {
        this.settings = settings;
        this.failureCodes = settings.circuit().codes().stream().map(ErrorCode::value).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public void init(ProcessorContext<String, ProviderSignal> context) {
        this.context = context;
        this.from = context.currentSystemTimeMs();
        PunctuationWatch.schedule(Punctuators.PROVIDER_SIGNALS, context, settings.signalInterval(), this::send);
    }

    @Override
    public void process(Record<String, ClassifiedOutcome> record) {
        ClassifiedOutcome outcome = record.value();
        AgentResult result = outcome == null ? null : outcome.getAgentResult();
        ProviderSignal tally = tally(result);
        if (tally == null) {
            return;
        }
        tally.setOutcomes(tally.getOutcomes() + 1);
        if (outcome.getResultType() == ResultType.SUCCESS) {
            tally.setSuccesses(tally.getSuccesses() + 1);
        } else if (outcome.getErrorCode() != null && failureCodes.contains(outcome.getErrorCode())) {
            tally.setFailures(tally.getFailures() + 1);
        }
        if (result.getRateLimit() != null && (tally.getAdvertisedAt() == null || outcome.getClassifiedAt() >= tally.getAdvertisedAt())) {
            List<RateLimitWindow> requests = result.getRateLimit().getWindows().stream().filter(RequestBudgets::countsRequests).toList();
            if (!requests.isEmpty()) {
                // as the provider said them when it answered (the record's time), not when the result is read: after a
                // downtime the two are apart by it
                long saidAt = Math.min(record.timestamp(), outcome.getClassifiedAt());
                tally.setAdvertisedAt(outcome.getClassifiedAt());
                tally.setWindows(AdvertisedWindows.asOf(requests, saidAt, outcome.getClassifiedAt(), settings.defaultWindow()));
            }
        }
    }

    /** The interval's tally of the result's scope; null where it names no provider or the scopes are at their bound. */
    private ProviderSignal tally(AgentResult result) {
        String provider = ProviderScope.rawProvider(result);
        if (provider == null) {
            return null;
        }
        String model = settings.scope() == ProviderScope.By.PROVIDER ? "" : ProviderScope.rawModel(result);
        Map<String, ProviderSignal> models = bySpelling.get(provider);
        ProviderSignal tally = models == null ? null : models.get(model == null ? "" : model);
        if (tally != null) {
            return tally;
        }
        ProviderScope scope = ProviderScope.of(result, settings.scope());
        if (scope == null || spellings >= settings.maxScopes()) {
            return null;
        }
        tally = tallies.get(scope.key());
        if (tally == null) {
            tally = ProviderSignal.newBuilder().setProvider(scope.provider()).setModel(scope.model()).setFrom(from).setTo(from)
                    .setOutcomes(0L).setSuccesses(0L).setFailures(0L).setWindows(new ArrayList<>()).build();
            tallies.put(scope.key(), tally);
        }
        bySpelling.computeIfAbsent(provider, p -> new HashMap<>()).put(model == null ? "" : model, tally);
        spellings++;
        return tally;
    }

    private void send(long now) {
        for (Map.Entry<String, ProviderSignal> tally : tallies.entrySet()) {
            ProviderSignal signal = tally.getValue();
            signal.setTo(now);
            context.forward(new Record<>(tally.getKey(), signal, now));
        }
        tallies.clear();
        bySpelling.clear();
        spellings = 0;
        from = now;
    }
}

package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RateLimitState;

/** The results the provider gate's tests send: one agent's, naming a provider and model, with a rate limit or none. */
final class GateInputs {
    private GateInputs() {
    }

    static AgentResult result(String provider, String model, String task, Object outcome, RateLimitState rateLimit) {
        return AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent").setTaskId(task).setDialect(Dialect.VAT_ENVELOPE)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel(model).build()).setRateLimit(rateLimit)
                .setOutcome(outcome).build();
    }

    static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }
}

package io.agentoutcomes.app.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.ContinuationDecision;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ContinuationEvaluation;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.client.JsonRecord;
import io.agentoutcomes.client.NodeEventBuilder;
import io.agentoutcomes.client.OutcomePublisher;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * What workflow runners and agent loops publish: jobs whose nodes succeed, fail retryably, permanently,
 * compensatably, or say no result type (as JSON flat, JSON wrapped and Avro), and loop steps evaluated (as JSON or
 * Avro). Draws from the generator's random source, so a seed gives the same traffic.
 */
final class WorkflowTraffic {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OutcomePublisher publisher;
    private final SentLedger ledger;
    private final Random random;

    WorkflowTraffic(OutcomePublisher publisher, SentLedger ledger, Random random) {
        this.publisher = publisher;
        this.ledger = ledger;
        this.random = random;
    }

    /** A workflow job of 3 to 5 nodes: JSON flat, JSON wrapped and Avro events; every result type, and none. */
    void job(String job) {
        int nodes = 3 + random.nextInt(3);
        for (int step = 1; step <= nodes; step++) {
            String node = "step-" + step;
            int pick = random.nextInt(100);
            String resultType = pick < 55 ? "success" : pick < 75 ? "retryable_failure" : pick < 83 ? "permanent_failure"
                    : pick < 91 ? "compensatable_failure" : null;
            long duration = 100 + random.nextInt(4_000);
            int encoding = random.nextInt(3);
            if (encoding == 2) {
                NodeEventBuilder event = NodeEventBuilder.of(job, node).stepIndex(step).attempt(0)
                        .duration(Duration.ofMillis(duration)).spans("span-" + job + "-" + step, "span-" + job)
                        .payload("{\"rows\":" + random.nextInt(1000) + "}", "{\"step\":" + step + "}");
                NodeFinished built = resultType == null ? event.withoutResultType() : switch (resultType) {
                    case "success" -> event.success();
                    case "retryable_failure" -> event.retryableFailure("upstream timeout");
                    case "permanent_failure" -> event.permanentFailure("404 resource not found");
                    default -> event.compensatableFailure("payment captured, shipping failed");
                };
                ledger.track(publisher.publish(built), publisher.topics().nodeFinished());
                continue;
            }
            ObjectNode payload = JSON.createObjectNode().put("job_id", job).put("node_id", node).put("step_index", step)
                    .put("attempt", 0).put("duration_ms", duration).put("trace_span_id", "span-" + job + "-" + step)
                    .put("parent_span_id", "span-" + job);
            payload.putObject("payload_results").put("rows", random.nextInt(1000));
            if (resultType != null) {
                payload.put("result_type", resultType);
                if (!resultType.equals("success")) {
                    payload.put("reason", resultType.equals("retryable_failure") ? "upstream timeout" : "validation failed");
                }
            }
            ObjectNode event = encoding == 0 ? payload
                    : JSON.createObjectNode().put("type", "node_finished").put("job_id", job).set("payload", payload);
            ledger.track(publisher.publish(JsonRecord.nodeFinished(job, node, event.toString())), publisher.topics().nodeFinishedJson());
        }
    }

    /** A loop step evaluated, continuing or stopped, as JSON or Avro. */
    void continuation(String agent, long n) {
        boolean stop = random.nextInt(3) == 0;
        int step = 1 + random.nextInt(12);
        String reason = stop ? "Tool error after 3 consecutive failures (max: 3)" : "Model requested another step";
        if (random.nextBoolean()) {
            ObjectNode event = JSON.createObjectNode().put("agentId", agent).put("step", step).put("shouldContinue", !stop)
                    .put("stopReason", stop ? "retry_limit" : "completed")
                    .put("resolvedBy", stop ? "ToolErrorCriterion" : "aggregate")
                    .put("decision", stop ? "ForbidContinuation" : "RequestContinuation");
            event.putArray("evaluations").addObject().put("criterion", "ToolErrorCriterion")
                    .put("decision", stop ? "ForbidContinuation" : "AllowContinuation").put("reason", reason);
            ledger.track(publisher.publish(JsonRecord.continuationEvent(agent, event.toString())),
                    publisher.topics().continuationEventsJson());
        } else {
            ContinuationEvaluated event = ContinuationEvaluated.newBuilder().setAgentId(agent).setStep(step)
                    .setShouldContinue(!stop).setStopReason(stop ? StopReason.RETRY_LIMIT : StopReason.COMPLETED)
                    .setResolvedBy(stop ? "ToolErrorCriterion" : "aggregate")
                    .setDecision(stop ? ContinuationDecision.FORBID_CONTINUATION : ContinuationDecision.REQUEST_CONTINUATION)
                    .setEvaluations(List.of(ContinuationEvaluation.newBuilder().setCriterion("ToolErrorCriterion")
                            .setDecision(stop ? ContinuationDecision.FORBID_CONTINUATION
                                    : ContinuationDecision.ALLOW_CONTINUATION).setReason(reason).build()))
                    .setTimestamp(System.currentTimeMillis()).build();
            ledger.track(publisher.publish(event), publisher.topics().continuationEvents());
        }
    }
}

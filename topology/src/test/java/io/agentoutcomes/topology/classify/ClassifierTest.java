package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassifierTest {
    private final Classifier classifier = new Classifier(ErrorPolicy.defaults(),
            Map.of("strict-agent", ErrorPolicy.stopOnAnyError()));

    private static AgentResult result(String agentId, Object outcome) {
        return AgentResult.newBuilder().setResultId("r").setAgentId(agentId).setTaskId("t").setOutcome(outcome).build();
    }

    private static Failure error(String code, Integer status, Boolean retryable, ErrorCategory category) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).setStatusCode(status)
                .setRetryable(retryable).setCategory(category).setMessage("boom").build()).build();
    }

    @Test
    void nodeFinishedWithoutResultTypeIsASuccess() {
        Classifier.Verdict verdict = classifier.classify(NodeFinished.newBuilder().setJobId("j").setNodeId("n").build(), 0, 0);

        assertThat(verdict.resultType()).isEqualTo(ResultType.SUCCESS);
        assertThat(verdict.decision()).isNull();
        assertThat(verdict.isFinal()).isTrue();
    }

    @Test
    void theRunnersResultTypeWinsOverEverything() {
        NodeFinished permanent = NodeFinished.newBuilder().setJobId("j").setNodeId("n")
                .setResultType(StepResultType.PERMANENT_FAILURE).setReason("429 rate limited").build();

        Classifier.Verdict verdict = classifier.classify(permanent, 0, 0);

        assertThat(verdict.resultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(verdict.decision().rule()).isEqualTo("explicit result_type permanent_failure");
        assertThat(verdict.decision().stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(verdict.reason()).isEqualTo("429 rate limited");
    }

    @Test
    void seed002AFailureOfAStoppedTaskIsPermanentEvenWhereTheRuleWouldIgnoreIt() {
        Classifier ignoring = new Classifier(ErrorPolicy.ignoreToolErrors(), Map.of());
        Classifier.Verdict ignored = ignoring.classify(result("a", error("event-rejected", null, null, null)), 0, 0);

        Classifier.Verdict kept = Classifier.keptStopped(ignored, StopReason.RETRY_LIMIT);

        assertThat(ignored.resultType()).isEqualTo(ResultType.IGNORED_FAILURE);
        assertThat(kept.resultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(kept.decision().handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(kept.decision().stopReason()).isEqualTo(StopReason.RETRY_LIMIT);
    }

    @Test
    void anUnclassifiedFailureWithNoHintIsPermanent() {
        Classifier.Verdict verdict = classifier.classify(result("a", error("disk_full", null, null, null)), 0, 0);

        assertThat(verdict.resultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(verdict.code()).isEqualTo(ErrorCode.UNKNOWN);
        assertThat(verdict.decision().rule()).isEqualTo("default: permanent");
    }

    @Test
    void anUnknownCodeKeepsTheProducersCategoryAndHint() {
        Classifier.Verdict verdict = classifier.classify(result("a", error("tool_crashed", null, true, ErrorCategory.TOOL)), 2, 3);

        assertThat(verdict.category()).isEqualTo(ErrorCategory.TOOL);
        assertThat(verdict.resultType()).isEqualTo(ResultType.RETRYABLE_FAILURE);
        assertThat(verdict.decision().consecutiveFailures()).isEqualTo(3);
        assertThat(verdict.decision().totalFailures()).isEqualTo(4);
    }

    @Test
    void seed002AFailedToolWithACodeOutsideTheTableIsAToolError() {
        Failure failure = Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("ENOENT").setToolName("read_file")
                .setMessage("no such file").build()).build();
        Classifier retryTools = new Classifier(ErrorPolicy.retryToolErrors(3), Map.of());

        Classifier.Verdict verdict = retryTools.classify(result("a", failure), 0, 0);

        assertThat(verdict.code()).isEqualTo(ErrorCode.UNKNOWN);
        assertThat(verdict.category()).isEqualTo(ErrorCategory.TOOL);
        assertThat(verdict.resultType()).isEqualTo(ResultType.RETRYABLE_FAILURE);
        assertThat(verdict.decision().rule()).isEqualTo("retry-tool-errors policy, category tool");
    }

    @Test
    void anHttpStatusClassifiesAnUnknownCode() {
        Classifier.Verdict verdict = classifier.classify(result("a", error("oops", 503, null, null)), 0, 0);

        assertThat(verdict.code()).isEqualTo(ErrorCode.LLM_UNAVAILABLE);
        assertThat(verdict.decision().handling()).isEqualTo(ErrorHandling.RETRY);
    }

    @Test
    void agentsCanHaveTheirOwnPolicy() {
        Classifier.Verdict verdict = classifier.classify(result("strict-agent", error("llm-timeout", null, null, null)), 0, 0);

        assertThat(verdict.resultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(verdict.decision().rule()).isEqualTo("stop-on-any-error policy, category timeout");
    }

    @Test
    void successesSkipsAndProgressHaveNoDecision() {
        assertThat(classifier.classify(result("a", Success.newBuilder().build()), 0, 0).resultType()).isEqualTo(ResultType.SUCCESS);
        assertThat(classifier.classify(result("a", Skipped.newBuilder().setReason("no files").build()), 0, 0).reason())
                .isEqualTo("no files");
        Classifier.Verdict progress = classifier.classify(result("a", InProgress.newBuilder().build()), 0, 0);
        assertThat(progress.resultType()).isEqualTo(ResultType.IN_PROGRESS);
        assertThat(progress.isFinal()).isFalse();
    }
}

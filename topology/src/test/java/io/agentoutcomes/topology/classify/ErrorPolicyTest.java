package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.StopReason;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class ErrorPolicyTest {

    private static FailureContext failure(ErrorCode code, int consecutive) {
        return new FailureContext(code, code.category(), consecutive, consecutive, null);
    }

    private static FailureContext failure(ErrorCategory category, int consecutive) {
        return new FailureContext(ErrorCode.UNKNOWN, category, consecutive, consecutive + 2, null);
    }

    @ParameterizedTest(name = "default policy retries {0}")
    @EnumSource(value = ErrorCode.class, names = {"LLM_TIMEOUT", "LLM_RATE_LIMIT", "LLM_UNAVAILABLE", "EVENT_TIMEOUT",
        "EVENT_UNAVAILABLE"})
    void defaultPolicyRetriesSeed000sRetryableSet(ErrorCode code) {
        PolicyDecision decision = ErrorPolicy.defaults().evaluate(failure(code, 1));

        assertThat(decision.handling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(decision.rule()).isEqualTo("default policy, code " + code.value());
        assertThat(decision.stopReason()).isNull();
    }

    @ParameterizedTest(name = "default policy stops on {0}")
    @EnumSource(value = ErrorCode.class, names = {"LLM_REFUSAL", "LLM_INVALID_OUTPUT", "LLM_TOKEN_LIMIT", "EVENT_REJECTED",
        "EVENT_INVALID_RESPONSE", "INVALID_INPUT", "AUTH_FAILED"})
    void defaultPolicyStopsOnSeed000sNonRetryableSet(ErrorCode code) {
        PolicyDecision decision = ErrorPolicy.defaults().evaluate(failure(code, 1));

        assertThat(decision.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(decision.stopReason()).isEqualTo(StopReason.ERROR);
    }

    @Test
    void defaultPolicyAllowsFiveAttempts() {
        ErrorPolicy policy = ErrorPolicy.defaults();

        assertThat(policy.maxRetries()).isEqualTo(5);
        for (int consecutive = 1; consecutive <= 4; consecutive++) {
            assertThat(policy.evaluate(failure(ErrorCode.LLM_RATE_LIMIT, consecutive)).handling()).isEqualTo(ErrorHandling.RETRY);
        }
        PolicyDecision fifth = policy.evaluate(failure(ErrorCode.LLM_RATE_LIMIT, 5));
        assertThat(fifth.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(fifth.stopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(fifth.reason()).isEqualTo("Rate_limit error after 5 consecutive failures (max: 5)");
    }

    @Test
    void unknownCodesFallToTheAgentsHintElsePermanent() {
        ErrorPolicy policy = ErrorPolicy.defaults();

        PolicyDecision hinted = policy.evaluate(new FailureContext(ErrorCode.UNKNOWN, ErrorCategory.UNKNOWN, 1, 1, true));
        PolicyDecision refused = policy.evaluate(new FailureContext(ErrorCode.UNKNOWN, ErrorCategory.UNKNOWN, 1, 1, false));
        PolicyDecision silent = policy.evaluate(new FailureContext(ErrorCode.UNKNOWN, ErrorCategory.UNKNOWN, 1, 1, null));

        assertThat(hinted.handling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(hinted.rule()).isEqualTo("agent's retryable hint (true)");
        assertThat(refused.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(silent.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(silent.rule()).isEqualTo("default: permanent");
        assertThat(silent.stopReason()).isEqualTo(StopReason.ERROR);
    }

    @Test
    void seed003RetryableFalseStopsWhatAPresetWouldRetryButNotWhatASettingRetries() {
        FailureContext refused = new FailureContext(ErrorCode.LLM_RATE_LIMIT, ErrorCategory.RATE_LIMIT, 1, 1, false);

        PolicyDecision preset = ErrorPolicy.defaults().evaluate(refused);
        PolicyDecision set = ErrorPolicy.defaults()
                .withCode(ErrorCode.LLM_RATE_LIMIT, ErrorHandling.RETRY, "policy.code.llm-rate-limit=retry").evaluate(refused);

        assertThat(preset.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(preset.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(preset.rule()).isEqualTo("agent's retryable hint (false), over default policy, code llm-rate-limit");
        assertThat(preset.reason()).isEqualTo(
                "Rate_limit error, not retried: agent's retryable hint (false), over default policy, code llm-rate-limit");
        assertThat(set.handling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(set.rule()).isEqualTo("policy.code.llm-rate-limit=retry");
    }

    @Test
    void policyRulesWinOverTheAgentsHint() {
        PolicyDecision decision = ErrorPolicy.defaults()
                .evaluate(new FailureContext(ErrorCode.LLM_REFUSAL, ErrorCategory.MODEL, 1, 1, true));

        assertThat(decision.handling()).isEqualTo(ErrorHandling.STOP);
    }

    @ParameterizedTest(name = "{0}: tool {1}, model {2}, validation {3}, rate_limit {4}, timeout {5}, unknown {6}, max {7}")
    @CsvSource({
        "stop-on-any-error, STOP, STOP, STOP, STOP, STOP, STOP, 0",
        "retry-tool-errors, RETRY, STOP, RETRY, RETRY, RETRY, STOP, 3",
        "ignore-tool-errors, IGNORE, STOP, IGNORE, RETRY, RETRY, IGNORE, 0",
        "retry-all, RETRY, RETRY, RETRY, RETRY, RETRY, RETRY, 5",
    })
    void seed002Presets(String name, ErrorHandling tool, ErrorHandling model, ErrorHandling validation,
                        ErrorHandling rateLimit, ErrorHandling timeout, ErrorHandling unknown, int maxRetries) {
        ErrorPolicy policy = ErrorPolicy.preset(name).orElseThrow();

        assertThat(policy.maxRetries()).isEqualTo(maxRetries);
        assertThat(policy.categories()).containsExactlyInAnyOrderEntriesOf(Map.of(
                ErrorCategory.TOOL, tool, ErrorCategory.MODEL, model, ErrorCategory.VALIDATION, validation,
                ErrorCategory.RATE_LIMIT, rateLimit, ErrorCategory.TIMEOUT, timeout, ErrorCategory.UNKNOWN, unknown));
    }

    @Test
    void retryBecomesStopOnceConsecutiveFailuresReachMaxRetries() {
        ErrorPolicy policy = ErrorPolicy.retryToolErrors(3);

        assertThat(policy.evaluate(failure(ErrorCategory.TOOL, 1)).reason()).isEqualTo("Tool error, retrying (1/3)");
        assertThat(policy.evaluate(failure(ErrorCategory.TOOL, 2)).handling()).isEqualTo(ErrorHandling.RETRY);
        PolicyDecision third = policy.evaluate(failure(ErrorCategory.TOOL, 3));
        assertThat(third.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(third.stopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(third.reason()).isEqualTo("Tool error after 3 consecutive failures (max: 3)");
        assertThat(third.totalFailures()).isEqualTo(5);
        assertThat(third.rule()).isEqualTo("retry-tool-errors policy, category tool");
    }

    @Test
    void ignoreToolErrorsIgnoresAndItsZeroRetryLimitStopsRateLimits() {
        ErrorPolicy policy = ErrorPolicy.ignoreToolErrors();

        PolicyDecision tool = policy.evaluate(failure(ErrorCategory.TOOL, 4));
        PolicyDecision rateLimit = policy.evaluate(failure(ErrorCategory.RATE_LIMIT, 1));

        assertThat(tool.handling()).isEqualTo(ErrorHandling.IGNORE);
        assertThat(tool.reason()).isEqualTo("Tool error ignored by policy");
        assertThat(tool.stopReason()).isNull();
        assertThat(rateLimit.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(rateLimit.stopReason()).isEqualTo(StopReason.RETRY_LIMIT);
    }

    @Test
    void stopOnAnyErrorStopsEveryCategoryWithError() {
        for (ErrorCategory category : EnumSet.allOf(ErrorCategory.class)) {
            PolicyDecision decision = ErrorPolicy.stopOnAnyError().evaluate(failure(category, 1));
            assertThat(decision.handling()).isEqualTo(ErrorHandling.STOP);
            assertThat(decision.stopReason()).isEqualTo(StopReason.ERROR);
        }
    }

    @Test
    void codeOverridesWinOverCategoryRules() {
        ErrorPolicy policy = ErrorPolicy.retryAll(5).withCode(ErrorCode.AUTH_FAILED, ErrorHandling.STOP)
                .withCategory(ErrorCategory.VALIDATION, ErrorHandling.IGNORE).withMaxRetries(2);

        assertThat(policy.evaluate(failure(ErrorCode.AUTH_FAILED, 1)).rule()).isEqualTo("retry-all policy, code auth-failed");
        assertThat(policy.evaluate(failure(ErrorCode.AUTH_FAILED, 1)).handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(policy.evaluate(failure(ErrorCode.LLM_REFUSAL, 1)).handling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(policy.evaluate(failure(ErrorCode.INVALID_INPUT, 1)).handling()).isEqualTo(ErrorHandling.IGNORE);
        assertThat(policy.evaluate(failure(ErrorCode.LLM_REFUSAL, 2)).stopReason()).isEqualTo(StopReason.RETRY_LIMIT);
    }

    @Test
    void aStopByARuleNamesTheSettingThatMadeItAndBlamesNoLimit() {
        ErrorPolicy policy = ErrorPolicy.defaults()
                .withCode(ErrorCode.LLM_RATE_LIMIT, ErrorHandling.STOP, "policy.code.llm-rate-limit=stop");

        PolicyDecision decision = policy.evaluate(failure(ErrorCode.LLM_RATE_LIMIT, 1));

        assertThat(decision.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(decision.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(decision.rule()).isEqualTo("policy.code.llm-rate-limit=stop");
        assertThat(decision.reason()).isEqualTo("Rate_limit error, not retried: policy.code.llm-rate-limit=stop");
    }

    @Test
    void aStopByAPresetsRuleSaysTheRuleNotALimitThatWasNotReached() {
        PolicyDecision decision = ErrorPolicy.defaults().evaluate(failure(ErrorCode.LLM_REFUSAL, 1));

        assertThat(decision.reason()).isEqualTo("Model error, not retried: default policy, code llm-refusal");
    }

    @Test
    void categoryPresetAndLimitSettingsAreNamedByTheDecisionsTheyMake() {
        ErrorPolicy policy = ErrorPolicy.retryToolErrors(3).chosenBy("policy.preset=retry-tool-errors")
                .withCategory(ErrorCategory.MODEL, ErrorHandling.RETRY, "policy.category.model=retry")
                .withMaxRetries(2, "policy.max.attempts=2");

        assertThat(policy.evaluate(failure(ErrorCategory.MODEL, 1)).rule()).isEqualTo("policy.category.model=retry");
        assertThat(policy.evaluate(failure(ErrorCategory.TOOL, 1)).rule()).isEqualTo("policy.preset=retry-tool-errors, category tool");
        PolicyDecision limit = policy.evaluate(failure(ErrorCategory.TOOL, 2));
        assertThat(limit.stopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(limit.rule()).isEqualTo("policy.preset=retry-tool-errors, category tool, limit policy.max.attempts=2");
        assertThat(limit.reason()).isEqualTo("Tool error after 2 consecutive failures (max: 2)");
    }

    @Test
    void seed002MaxRetriesCountsFailuresSoFiveMeansFourRetries() {
        ErrorPolicy policy = ErrorPolicy.retryAll(5);
        int retries = 0;
        for (int failures = 1; policy.evaluate(failure(ErrorCategory.TOOL, failures)).handling() == ErrorHandling.RETRY; failures++) {
            retries++;
        }
        assertThat(retries).isEqualTo(4);
        assertThat(ErrorPolicy.retryAll(1).evaluate(failure(ErrorCategory.TOOL, 1)).handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(ErrorPolicy.retryAll(0).evaluate(failure(ErrorCategory.TOOL, 1)).handling()).isEqualTo(ErrorHandling.STOP);
    }
}

package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.topology.classify.Classifier;
import io.agentoutcomes.topology.classify.ConfidencePolicy;
import io.agentoutcomes.topology.classify.DailyLimit;
import io.agentoutcomes.topology.classify.PolicyDecision;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryPolicyConfigTest {

    private static RetryPolicy load(Map<String, String> settings) {
        return ConfigLoader.load(Optional.empty(), Map.of(), settings).pipeline().retry();
    }

    @Test
    void withNothingSetItIsSeed000sDefaultPolicyAndBackoff() {
        RetryPolicy policy = load(Map.of());

        assertThat(policy.classifier().defaultPolicy().name()).isEqualTo("default");
        assertThat(policy.classifier().defaultPolicy().maxRetries()).isEqualTo(5);
        assertThat(policy.backoff().cap()).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.tiers().names()).containsExactly("1s", "2s", "5s", "10s", "30s", "long");
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).pipeline().scheduler().checkInterval())
                .isEqualTo(Duration.ofMillis(20));
    }

    @Test
    void theBackoffCapCapsDelaysAndNamesNoTopic() {
        RetryPolicy policy = load(Map.of("backoff.cap.ms", "8000"));

        assertThat(policy.backoff().cap()).isEqualTo(Duration.ofSeconds(8));
        assertThat(policy.tiers().names()).containsExactly("1s", "2s", "5s", "10s", "30s", "long");
    }

    @Test
    void seed000ConfidenceThresholdsAreOptInSettings() {
        assertThat(load(Map.of()).confidence()).isEqualTo(ConfidencePolicy.off());
        assertThat(load(Map.of(ConfidencePolicy.RETRY_BELOW_CONFIG, "0.8", ConfidencePolicy.VERIFY_BELOW_CONFIG, "0.9"))
                .confidence()).isEqualTo(new ConfidencePolicy(0.8, 0.9));
        assertThatThrownBy(() -> load(Map.of(ConfidencePolicy.RETRY_BELOW_CONFIG, "80"))).hasMessage(
                "policy.confidence.retry-below must be between 0 and 1, was 80.0");
        assertThatThrownBy(() -> load(Map.of("policy.confidence.retry-above", "0.9"))).hasMessageStartingWith(
                "Unknown setting policy.confidence.retry-above");
    }

    @Test
    void presetsCategoriesCodesAndAgentsAreConfigurableAndNotPassedToKafka() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                "policy.preset", "retry-tool-errors",
                "policy.max.retries", "4",
                "policy.category.model", "retry",
                "policy.code.auth-failed", "stop",
                "policy.agent.billing.bot.preset", "stop-on-any-error",
                "policy.agent.billing.bot.code.llm-timeout", "retry",
                "backoff.base.llm-timeout.ms", "250",
                "backoff.cap.ms", "60000",
                "retry.tiers", "500ms,1m",
                "retry.scheduler.interval.ms", "10"));
        RetryPolicy policy = config.pipeline().retry();

        assertThat(config.kafka()).isEmpty();
        assertThat(policy.classifier().defaultPolicy().maxRetries()).isEqualTo(4);
        assertThat(policy.classifier().defaultPolicy().categories()).containsEntry(ErrorCategory.MODEL, ErrorHandling.RETRY)
                .containsEntry(ErrorCategory.TOOL, ErrorHandling.RETRY);
        assertThat(policy.classifier().defaultPolicy().codes()).containsExactly(Map.entry(ErrorCode.AUTH_FAILED, ErrorHandling.STOP));
        assertThat(policy.classifier().policyFor("billing.bot").name()).isEqualTo("stop-on-any-error");
        assertThat(policy.classifier().policyFor("billing.bot").codes()).containsEntry(ErrorCode.LLM_TIMEOUT, ErrorHandling.RETRY);
        assertThat(policy.classifier().policyFor("other")).isSameAs(policy.classifier().defaultPolicy());
        assertThat(policy.backoff().bases()).containsEntry(ErrorCode.LLM_TIMEOUT, Duration.ofMillis(250));
        assertThat(policy.backoff().cap()).isEqualTo(Duration.ofMinutes(1));
        assertThat(policy.tiers().names()).containsExactly("500ms", "1m", "long");
        assertThat(config.pipeline().scheduler().checkInterval()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void mistakesAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> load(Map.of("policy.preset", "retry-some"))).hasMessageStartingWith(
                "policy.preset is 'retry-some': expected default, stop-on-any-error");
        assertThatThrownBy(() -> load(Map.of("policy.category.network", "retry"))).hasMessageStartingWith(
                "policy.category.network: 'network' is not a category: expected one of tool, model");
        assertThatThrownBy(() -> load(Map.of("policy.code.llm-timeout", "later"))).hasMessage(
                "policy.code.llm-timeout is 'later': expected stop, retry or ignore");
        assertThatThrownBy(() -> load(Map.of("backoff.base.timeout.ms", "5"))).hasMessageStartingWith(
                "backoff.base.timeout.ms: 'timeout' is not a canonical error code");
        assertThatThrownBy(() -> load(Map.of("backoff.jitter", "2"))).hasMessageStartingWith("backoff settings:");
        assertThatThrownBy(() -> load(Map.of("retry.tiers", "5 seconds"))).hasMessage(
                "retry.tiers: '5 seconds' is not a duration like 500ms, 5s, 2m or 1h");
        assertThatThrownBy(() -> load(Map.of("policy.maxretries", "3"))).hasMessage(
                "Unknown setting policy.maxretries (see docs/classification.md)");
    }

    @Test
    void dailyLimitSwitchesByDefaultAndCanWait() {
        assertThat(load(Map.of()).dailyLimit()).isEqualTo(DailyLimit.SWITCH);
        assertThat(load(Map.of("policy.daily-limit", "wait")).dailyLimit()).isEqualTo(DailyLimit.WAIT);
        assertThatThrownBy(() -> load(Map.of("policy.daily-limit", "later")))
                .hasMessage("policy.daily-limit is 'later': expected switch or wait");
    }

    private static PolicyDecision rateLimited(RetryPolicy policy, String agent) {
        AgentResult failure = AgentResult.newBuilder().setResultId("r").setAgentId(agent).setTaskId("t")
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-rate-limit").build()).build())
                .build();
        Classifier.Verdict verdict = policy.classifier().classify(failure, 0, 0);
        return verdict.decision();
    }

    @Test
    void aCodeSetByAnEnvironmentVariableIsNamedAsItsSettingByTheDecisionsItMakes() {
        RetryPolicy policy = ConfigLoader.load(Optional.empty(),
                Map.of("AGENT_OUTCOMES_POLICY_CODE_LLM__RATE__LIMIT", "stop"), Map.of()).pipeline().retry();

        PolicyDecision decision = rateLimited(policy, "a");

        assertThat(decision.handling()).isEqualTo(ErrorHandling.STOP);
        assertThat(decision.rule()).isEqualTo("policy.code.llm-rate-limit=stop");
        assertThat(decision.reason()).isEqualTo("Rate_limit error, not retried: policy.code.llm-rate-limit=stop");
    }

    @Test
    void anAgentsOwnSettingsAndAChosenPresetAreNamedToo() {
        RetryPolicy policy = load(Map.of("policy.preset", "retry-all",
                "policy.agent.billing-bot.category.rate_limit", "ignore"));

        assertThat(rateLimited(policy, "other").rule()).isEqualTo("policy.preset=retry-all, category rate_limit");
        assertThat(rateLimited(policy, "billing-bot").rule()).isEqualTo("policy.agent.billing-bot.category.rate_limit=ignore");
    }

    @Test
    void maxAttemptsIsMaxRetriesByTheNameTemporalAndSpringUse() {
        assertThat(load(Map.of("policy.max.attempts", "4")).classifier().defaultPolicy().maxRetries()).isEqualTo(4);
        assertThat(load(Map.of("policy.agent.b.max.attempts", "2")).classifier().policyFor("b").maxRetries()).isEqualTo(2);
        assertThatThrownBy(() -> load(Map.of("policy.max.attempts", "0")))
                .hasMessage("policy.max.attempts must be at least 1, was 0");
        assertThatThrownBy(() -> load(Map.of("policy.agent.b.max.attempts", "0")))
                .hasMessage("policy.agent.b.max.attempts must be at least 1 (the first attempt), was 0");
        assertThatThrownBy(() -> load(Map.of("policy.max.attempts", "4", "policy.max.retries", "4")))
                .hasMessageStartingWith("policy.max.retries and policy.max.attempts are one limit under two names");
    }
}

package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EnvironmentVariablesTest {

    @Test
    void aDoubleUnderscoreIsADashSoPolicyCodeLlmRateLimitCanBeSetFromTheEnvironment() {
        assertThat(EnvironmentVariables.setting("AGENT_OUTCOMES_POLICY_CODE_LLM__RATE__LIMIT")).hasValue("policy.code.llm-rate-limit");

        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of("AGENT_OUTCOMES_POLICY_CODE_LLM__RATE__LIMIT", "stop"), Map.of());

        assertThat(config.pipeline().retry().classifier().defaultPolicy().codes())
                .containsEntry(ErrorCode.LLM_RATE_LIMIT, ErrorHandling.STOP);
        assertThat(config.kafka()).isEmpty();
    }

    @Test
    void namesAreReadAsConfluentsImagesReadThem() {
        assertThat(EnvironmentVariables.setting("AGENT_OUTCOMES_NUM_STREAM_THREADS")).hasValue("num.stream.threads");
        assertThat(EnvironmentVariables.setting("AGENT_OUTCOMES_POLICY_DAILY__LIMIT")).hasValue("policy.daily-limit");
        assertThat(EnvironmentVariables.setting("AGENT_OUTCOMES_POLICY_CATEGORY_RATE___LIMIT")).hasValue("policy.category.rate_limit");
        assertThat(EnvironmentVariables.setting("AGENT_OUTCOMES_A____B")).hasValue("a_.b");
        assertThat(EnvironmentVariables.setting("AGENT_OUTCOMES_")).isEmpty();
        assertThat(EnvironmentVariables.setting("KAFKA_BOOTSTRAP_SERVERS")).isEmpty();
    }

    @Test
    void everyDeclaredSettingsVariableReadsBackAsTheSetting() {
        AgentOutcomesConfig.CONFIG.names().forEach(name ->
                assertThat(EnvironmentVariables.setting(EnvironmentVariables.variable(name))).hasValue(name));
        assertThat(EnvironmentVariables.variable("policy.category.rate_limit")).isEqualTo("AGENT_OUTCOMES_POLICY_CATEGORY_RATE___LIMIT");
    }

    @Test
    void otherVariablesOfTheEnvironmentAreIgnored() {
        assertThat(EnvironmentVariables.settings(Map.of("HOME", "/root", "AGENT_OUTCOMES_HTTP_PORT", "9090")))
                .containsExactly(Map.entry("http.port", "9090"));
    }
}

package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reproductions of issue 11, through {@code explain}: each answers as its seed says and names what decided. */
class ExplainSeedReproductionsTest {

    @TempDir
    Path dir;

    private JsonNode explain(String envelope, String... args) throws Exception {
        return ExplainCommandTest.explain(dir, envelope, args);
    }

    @Test
    void seed000FiveAttemptsHeaderAttemptFourIsTheLastAndStops() throws Exception {
        JsonNode answer = explain("{\"status\":\"error\",\"error\":\"llm-timeout\"}", "--header", "agent-id=a",
                "--header", "attempt=4", "--key", "t");

        assertThat(answer.at("/classification/attemptFrom").asText()).isEqualTo("declared attempt 4");
        assertThat(answer.at("/decision/handling").asText()).isEqualTo("STOP");
        assertThat(answer.at("/decision/stopReason").asText()).isEqualTo("RETRY_LIMIT");
        assertThat(answer.at("/decision/reason").asText()).isEqualTo("Timeout error after 5 consecutive failures (max: 5)");
        assertThat(answer.get("retry").isNull()).isTrue();
        assertThat(answer.get("retryCount").asInt()).isEqualTo(4);
    }

    @Test
    void seed000FiveAttemptsHeaderAttemptFiveStops() throws Exception {
        JsonNode answer = explain("{\"status\":\"error\",\"error\":\"llm-timeout\"}", "--header", "agent-id=a",
                "--header", "attempt=5", "--key", "t");

        assertThat(answer.at("/decision/handling").asText()).isEqualTo("STOP");
        assertThat(answer.at("/decision/stopReason").asText()).isEqualTo("RETRY_LIMIT");
    }

    @Test
    void seed000RetryCountFourIsFailedFiveTimesMaxExceeded() throws Exception {
        JsonNode answer = explain("{\"status\":\"error\",\"error\":\"llm-timeout\",\"execution\":{\"retryCount\":4}}",
                "--header", "agent-id=a", "--key", "t");

        assertThat(answer.at("/classification/attemptFrom").asText()).isEqualTo("declared execution.retryCount 4");
        assertThat(answer.at("/decision/handling").asText()).isEqualTo("STOP");
        assertThat(answer.at("/decision/stopReason").asText()).isEqualTo("RETRY_LIMIT");
        assertThat(answer.get("retryCount").asInt()).isEqualTo(4);
    }

    @Test
    void seed003RetryAfterHeaderSetsTheWaitAsRetryAfterInTheEnvelopeDoes() throws Exception {
        JsonNode fromHeader = explain("{\"error\":{\"code\":\"rate_limit\"},"
                + "\"provider_data\":{\"raw_headers\":{\"retry-after\":\"60\"}}}", "--header", "agent-id=a", "--key", "t");
        JsonNode fromEnvelope = explain("{\"error\":{\"code\":\"rate_limit\"},\"rate_limit\":{\"retry_after\":60}}",
                "--header", "agent-id=a", "--key", "t");

        assertThat(fromHeader.at("/retry/delayMs").asLong()).isEqualTo(60_000L);
        assertThat(fromHeader.at("/retry/why").asText())
                .isEqualTo("provider retry_after 60000 ms (header retry-after: 60) (over backoff 5000 ms x 2^0)");
        assertThat(fromEnvelope.at("/retry/delayMs").asLong()).isEqualTo(60_000L);
    }

    @Test
    void seed003ExhaustedDailyWindowSwitchesProviderInsteadOfWaitingTwelveHours() throws Exception {
        String envelope = "{\"error\":{\"code\":\"rate_limit\"},\"rate_limit\":{\"limited\":true,\"windows\":["
                + "{\"name\":\"tokens_per_day\",\"resource\":\"tokens\",\"remaining\":0,\"resets_in\":43200}]}}";
        JsonNode switched = explain(envelope, "--header", "agent-id=a", "--key", "t");
        JsonNode waiting = explain(envelope, "--header", "agent-id=a", "--key", "t", "-p", "policy.daily-limit=wait");

        assertThat(switched.at("/decision/handling").asText()).isEqualTo("RETRY");
        assertThat(switched.at("/decision/action").asText()).isEqualTo("SWITCH_PROVIDER");
        assertThat(switched.at("/decision/rule").asText()).isEqualTo("policy.daily-limit=switch");
        assertThat(switched.at("/retry/delayMs").asLong()).isZero();
        assertThat(switched.at("/retry/why").asText()).startsWith("rate-limit window tokens_per_day exhausted, resets at ")
                .endsWith(": switch provider now");
        assertThat(waiting.at("/decision/action").asText()).isEqualTo("WAIT");
        assertThat(waiting.at("/retry/delayMs").asLong()).isEqualTo(43_200_000L);
    }

    @Test
    void seed004RequiredFieldsAreRejectedNamingTheField() throws Exception {
        JsonNode failure = explain("{\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"boom\"}", "--key", "pr-1");
        JsonNode success = explain("{\"status\":\"success\",\"agentId\":\"a\",\"metrics\":{\"durationMs\":1,"
                + "\"filesProcessed\":1}}", "--key", "pr-1");
        JsonNode finding = explain("{\"status\":\"success\",\"agentId\":\"a\",\"metrics\":{\"durationMs\":1,"
                + "\"filesProcessed\":1},\"findings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"message\":\"m\"}]}",
                "--key", "pr-1");

        assertThat(failure.at("/meta/exit").asInt()).isEqualTo(3);
        assertThat(failure.at("/rejected/reason").asText()).isEqualTo("missing-field");
        assertThat(failure.at("/rejected/message").asText()).startsWith("failureStage is required when status is failure");
        assertThat(success.at("/rejected/message").asText()).startsWith("findings is required when status is success");
        assertThat(finding.at("/rejected/message").asText()).isEqualTo("findings[0].sourceAgent is required");
    }
}

package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.RateLimitWindow;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A provider's error body ({@code provider_data.error_body}) read for its signals, and never a reason to lose a result. */
class ProviderErrorBodyTest {
    private static AgentResult publish(String errorBody) {
        return agentResult("t", "{\"error\":{\"code\":\"rate_limit\",\"status_code\":429},\"provider_data\":{\"provider\":\"p\","
                + "\"error_body\":" + errorBody + "}}", headers("agent-id", "a"));
    }

    @Test
    void googleRetryInfoIsAWaitAndEachQuotaFailureViolationAnExhaustedWindow() {
        AgentResult result = publish("{\"error\":{\"code\":429,\"status\":\"RESOURCE_EXHAUSTED\",\"details\":["
                + "{\"@type\":\"type.googleapis.com/google.rpc.QuotaFailure\",\"violations\":[{\"quotaId\":"
                + "\"GenerateRequestsPerDayPerProjectPerModel-FreeTier\",\"quotaValue\":\"0\"}]},"
                + "{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"25.465784708s\"}]}}");

        assertThat(result.getRateLimit().getRetryAfterMs()).isEqualTo(25_465L);
        assertThat(result.getRateLimit().getRetryAfterHeader()).isEqualTo("error_body RetryInfo.retryDelay: 25.465784708s");
        assertThat(result.getRateLimit().getLimited()).isTrue();
        assertThat(result.getRateLimit().getWindows()).containsExactly(RateLimitWindow.newBuilder()
                .setName("GenerateRequestsPerDayPerProjectPerModel-FreeTier").setResource("requests").setRemaining(0L)
                .setLimit(0L).setHeader("error_body QuotaFailure quotaId: GenerateRequestsPerDayPerProjectPerModel-FreeTier"
                        + ", quotaValue: 0").build());
    }

    @Test
    void aQuotaCodeIsAnExhaustedWindowOfLimitZero() {
        AgentResult result = publish("{\"error\":{\"message\":\"You exceeded your current quota\",\"type\":\"insufficient_quota\","
                + "\"param\":null,\"code\":\"insufficient_quota\"}}");

        assertThat(result.getRateLimit().getWindows()).containsExactly(RateLimitWindow.newBuilder()
                .setName("insufficient_quota").setRemaining(0L).setLimit(0L).setHeader("error_body error: insufficient_quota")
                .build());
    }

    @Test
    void bodiesOfAnyOtherShapeAddNothing() {
        for (String body : List.of("\"Too many requests\"", "[1,2]", "{\"error\":\"x\"}", "{\"error\":{\"details\":{}}}",
                "{\"error\":{\"code\":\"rate_limit_exceeded\",\"details\":[{\"@type\":\"google.rpc.RetryInfo\","
                        + "\"retryDelay\":\"-5s\"},{\"@type\":\"google.rpc.RetryInfo\",\"retryDelay\":\"soon\"},"
                        + "{\"@type\":\"google.rpc.QuotaFailure\",\"violations\":[{}]}]}}")) {
            assertThat(publish(body).getRateLimit()).as(body).isNull();
        }
    }
}

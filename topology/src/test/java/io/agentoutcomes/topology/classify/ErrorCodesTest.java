package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorCodesTest {

    @ParameterizedTest(name = "seed 000 {0} is {1}, {2}")
    @CsvSource({
        "llm-refusal, LLM_REFUSAL, NON_RETRYABLE, MODEL",
        "llm-invalid-output, LLM_INVALID_OUTPUT, NON_RETRYABLE, VALIDATION",
        "llm-timeout, LLM_TIMEOUT, RETRYABLE, TIMEOUT",
        "llm-rate-limit, LLM_RATE_LIMIT, RETRYABLE, RATE_LIMIT",
        "llm-token-limit, LLM_TOKEN_LIMIT, NON_RETRYABLE, MODEL",
        "llm-unavailable, LLM_UNAVAILABLE, RETRYABLE, MODEL",
        "event-timeout, EVENT_TIMEOUT, RETRYABLE, TIMEOUT",
        "event-unavailable, EVENT_UNAVAILABLE, RETRYABLE, TOOL",
        "event-rejected, EVENT_REJECTED, NON_RETRYABLE, TOOL",
        "event-invalid-response, EVENT_INVALID_RESPONSE, NON_RETRYABLE, TOOL",
        "invalid-input, INVALID_INPUT, NON_RETRYABLE, VALIDATION",
    })
    void seed000ConstantsAreTheirOwnCanonicalCodeWithSeed000Retryability(String reported, ErrorCode code,
                                                                         ErrorCode.Retryability retryability,
                                                                         ErrorCategory category) {
        assertThat(ErrorCodes.canonical(reported, null)).isEqualTo(code);
        assertThat(code.value()).isEqualTo(reported);
        assertThat(code.retryability()).isEqualTo(retryability);
        assertThat(code.category()).isEqualTo(category);
    }

    @ParameterizedTest(name = "seed 003 {0} -> {1}")
    @CsvSource({
        "rate_limit, LLM_RATE_LIMIT",
        "timeout, LLM_TIMEOUT",
        "server_error, LLM_UNAVAILABLE",
        "invalid_request, INVALID_INPUT",
        "auth_error, AUTH_FAILED",
        "content_filter, LLM_REFUSAL",
        "context_length, LLM_TOKEN_LIMIT",
        "model_unavailable, LLM_UNAVAILABLE",
        "RATE_LIMIT, LLM_RATE_LIMIT",
    })
    void seed003CodesMapOntoSeed000Constants(String reported, ErrorCode code) {
        assertThat(ErrorCodes.canonical(reported, null)).isEqualTo(code);
    }

    @ParameterizedTest(name = "HTTP {0} -> {1}")
    @CsvSource({
        "429, LLM_RATE_LIMIT", "408, LLM_TIMEOUT", "504, LLM_TIMEOUT", "500, LLM_UNAVAILABLE", "502, LLM_UNAVAILABLE",
        "503, LLM_UNAVAILABLE", "400, INVALID_INPUT", "422, INVALID_INPUT", "401, AUTH_FAILED", "403, AUTH_FAILED",
        "413, LLM_TOKEN_LIMIT", "404, UNKNOWN", "302, UNKNOWN",
    })
    void httpStatusesDecideWhenTheCodeDoesNot(int status, ErrorCode code) {
        assertThat(ErrorCodes.canonical("something_else", status)).isEqualTo(code);
        assertThat(ErrorCodes.canonical(null, status)).isEqualTo(code);
    }

    @ParameterizedTest(name = "{0} with {1}")
    @CsvSource({"rate_limit, 500, LLM_RATE_LIMIT", "llm-timeout, 429, LLM_TIMEOUT"})
    void aKnownCodeWinsOverTheStatus(String reported, int status, ErrorCode code) {
        assertThat(ErrorCodes.canonical(reported, status)).isEqualTo(code);
    }

    @ParameterizedTest
    @CsvSource({"unknown", "'   '", "disk_full"})
    void anythingElseIsUnknown(String reported) {
        assertThat(ErrorCodes.canonical(reported, null)).isEqualTo(ErrorCode.UNKNOWN);
        assertThat(ErrorCode.UNKNOWN.category()).isEqualTo(ErrorCategory.UNKNOWN);
    }
}

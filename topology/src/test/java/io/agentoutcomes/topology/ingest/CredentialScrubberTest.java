package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shapes in which providers' SDKs and HTTP clients put credentials into error messages, each scrubbed to the
 * exact text expected; scrubbing twice changes nothing more, and text without credentials comes back as the same
 * instance, without a pattern run when it has none of the trigger words.
 */
class CredentialScrubberTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "OpenAI Python SDK, masked key | Error code: 401 - {'error': {'message': 'Incorrect API key provided: "
                + "sk-proj-AbCd****************************************wXyZ. You can find your API key at "
                + "https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': None, "
                + "'code': 'invalid_api_key'}}"
                + " | Error code: 401 - {'error': {'message': 'Incorrect API key provided: [redacted]. You can find "
                + "your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', "
                + "'param': None, 'code': 'invalid_api_key'}}",
        "OpenAI Node SDK | 401 Incorrect API key provided: sk-abc123def456ghi789. You can find your API key at "
                + "https://platform.openai.com/account/api-keys."
                + " | 401 Incorrect API key provided: [redacted]. You can find your API key at "
                + "https://platform.openai.com/account/api-keys.",
        "Anthropic SDK with the request's headers | Error code: 401 - invalid x-api-key; request headers: "
                + "{'x-api-key': 'sk-ant-api03-AbC_dEf-123', 'anthropic-version': '2023-06-01'}"
                + " | Error code: 401 - invalid x-api-key; request headers: {'x-api-key': '[redacted]', "
                + "'anthropic-version': '2023-06-01'}",
        "Google, key in the URL | 400 Client Error: Bad Request for url: https://generativelanguage.googleapis.com"
                + "/v1beta/models/gemini-1.5-flash:generateContent?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"
                + " | 400 Client Error: Bad Request for url: https://generativelanguage.googleapis.com"
                + "/v1beta/models/gemini-1.5-flash:generateContent?key=[redacted]",
        "Google, a key that is no AIza key | API key not valid. Please pass a valid API key. url: "
                + "https://example.googleapis.com/v1/x?alt=json&key=not-a-real-key-1"
                + " | API key not valid. Please pass a valid API key. url: "
                + "https://example.googleapis.com/v1/x?alt=json&key=[redacted]",
        "requests, api_key in the query | 401 Client Error: Unauthorized for url: "
                + "https://api.example.com/v1/search?q=cats&api_key=abc123def456&page=2"
                + " | 401 Client Error: Unauthorized for url: "
                + "https://api.example.com/v1/search?q=cats&api_key=[redacted]&page=2",
        "httpx Headers repr | Headers({'host': 'api.openai.com', 'authorization': 'Bearer sk-live-Qw3', "
                + "'cookie': '__cf_bm=abc; _cfuvid=def'})"
                + " | Headers({'host': 'api.openai.com', 'authorization': '[redacted]', 'cookie': '[redacted]'})",
        "a raw HTTP dump | `> POST /v1/chat HTTP/1.1\n> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig\n"
                + "> Cookie: sid=s3cr3t; theme=dark\n< Set-Cookie: sid=n3w; Path=/; HttpOnly\n< HTTP/1.1 401`"
                + " | `> POST /v1/chat HTTP/1.1\n> Authorization: [redacted]\n> Cookie: [redacted]\n"
                + "< Set-Cookie: [redacted]\n< HTTP/1.1 401`",
        "the issue's case | 401 Unauthorized: Authorization: Bearer tok_9f8e7d6c5b4a, retry later"
                + " | 401 Unauthorized: Authorization: [redacted], retry later",
        "a header reads on | request headers: Authorization: Basic dXNlcjpwYXNz, Accept: */*"
                + " | request headers: Authorization: [redacted], Accept: */*",
        "AWS botocore | The AWS Access Key Id you provided does not exist in our records. (AKIAIOSFODNN7EXAMPLE)"
                + " | The AWS Access Key Id you provided does not exist in our records. ([redacted])",
        "AWS secret in a config dump | aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
                + " | aws_secret_access_key = [redacted]",
        "JSON body quoting a key | {\"error\":{\"message\":\"bad key\",\"api_key\":\"sk-xyz-123\",\"client_secret\":42}}"
                + " | {\"error\":{\"message\":\"bad key\",\"api_key\":\"[redacted]\",\"client_secret\":[redacted]}}",
        "PHP and Java session cookies in a log line | set PHPSESSID=abc123 and JSESSIONID=def456 for /app"
                + " | set PHPSESSID=[redacted] and JSESSIONID=[redacted] for /app",
        "an OIDC token response | {\"id_token\":\"x.y.z\",\"refresh_token\":\"r-1\",\"expires_in\":3600}"
                + " | {\"id_token\":\"[redacted]\",\"refresh_token\":\"[redacted]\",\"expires_in\":3600}",
        "GitHub and Slack tokens | push failed for ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 via xoxb-1234567890-abcdef"
                + " | push failed for [redacted] via [redacted]",
    })
    void credentialsInTheShapesSdksWriteAreReplaced(String what, String message, String scrubbed) {
        assertThat(CredentialScrubber.scrub(message)).isEqualTo(scrubbed);
        assertThat(CredentialScrubber.scrub(scrubbed)).as("scrubbing again").isSameAs(scrubbed);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Error code: 401 - {'type': 'error', 'error': {'type': 'authentication_error', 'message': 'invalid x-api-key'}}",
        "400 API key not valid. Please pass a valid API key. [reason: \"API_KEY_INVALID\" metadata { key: \"service\" }]",
        "{\"tokens\":3,\"sessionCount\":2,\"max_tokens\":100}",
    })
    void messagesThatOnlyTalkAboutCredentialsAreKeptAsTheyCame(String message) {
        assertThat(CredentialScrubber.scrub(message)).isSameAs(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Request timed out after 30000 ms",
        "{\"answer\":42,\"files\":[\"a.py\",\"b.py\"],\"model\":\"gpt-4o-mini\"}",
        "The build failed: 3 tests did not pass",
        "Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000",
    })
    void textWithoutATriggerWordIsNotLookedAtTwice(String text) {
        assertThat(CredentialScrubber.mayHoldCredential(text)).isFalse();
        assertThat(CredentialScrubber.scrub(text)).isSameAs(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Authorization: Bearer x", "SK-abc", "AIza", "apiKEY=1", "Cookie: a", "ghp_x", "passwd", "PHPSESSID=1", "id_token", "refresh",
        "api\u212Aey"})
    void everyTriggerWordIsFoundInAnyCase(String text) {
        assertThat(CredentialScrubber.mayHoldCredential(text)).isTrue();
    }
}

package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiOperationNameIncubatingValues;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiProviderNameIncubatingValues;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiTokenTypeIncubatingValues;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The names the metrics use are OpenTelemetry's own (its semantic-convention constants, 1.37). */
class GenAiConventionsTest {

    @Test
    void attributeNamesAreTheConventions() {
        assertThat(GenAiConventions.PROVIDER_NAME).isEqualTo(GenAiIncubatingAttributes.GEN_AI_PROVIDER_NAME.getKey());
        assertThat(GenAiConventions.REQUEST_MODEL).isEqualTo(GenAiIncubatingAttributes.GEN_AI_REQUEST_MODEL.getKey());
        assertThat(GenAiConventions.AGENT_ID).isEqualTo(GenAiIncubatingAttributes.GEN_AI_AGENT_ID.getKey());
        assertThat(GenAiConventions.TOKEN_TYPE).isEqualTo(GenAiIncubatingAttributes.GEN_AI_TOKEN_TYPE.getKey());
        assertThat(GenAiConventions.TOKEN_TYPE_INPUT).isEqualTo(GenAiTokenTypeIncubatingValues.INPUT);
        assertThat(GenAiConventions.TOKEN_TYPE_OUTPUT).isEqualTo(GenAiTokenTypeIncubatingValues.OUTPUT);
        assertThat(GenAiConventions.ERROR_TYPE).isEqualTo(ErrorAttributes.ERROR_TYPE.getKey());
        assertThat(GenAiConventions.OPERATION_NAME).isEqualTo(GenAiIncubatingAttributes.GEN_AI_OPERATION_NAME.getKey());
        assertThat(GenAiConventions.OPERATION_INVOKE_AGENT).isEqualTo(GenAiOperationNameIncubatingValues.INVOKE_AGENT);
        assertThat(GenAiConventions.OPERATION_INVOKE_WORKFLOW).as("a custom value, not a well-known one")
                .isNotIn(GenAiOperationNameIncubatingValues.CHAT, GenAiOperationNameIncubatingValues.INVOKE_AGENT,
                        GenAiOperationNameIncubatingValues.EXECUTE_TOOL, GenAiOperationNameIncubatingValues.CREATE_AGENT);
    }

    @ParameterizedTest
    @CsvSource({
        "openai, " + GenAiProviderNameIncubatingValues.OPENAI,
        "Anthropic, " + GenAiProviderNameIncubatingValues.ANTHROPIC,
        "azure, " + GenAiProviderNameIncubatingValues.AZURE_AI_OPENAI,
        "azure-openai, " + GenAiProviderNameIncubatingValues.AZURE_AI_OPENAI,
        "azure_openai, " + GenAiProviderNameIncubatingValues.AZURE_AI_OPENAI,
        "azure.ai.openai, " + GenAiProviderNameIncubatingValues.AZURE_AI_OPENAI,
        "azure-ai-inference, " + GenAiProviderNameIncubatingValues.AZURE_AI_INFERENCE,
        "bedrock, " + GenAiProviderNameIncubatingValues.AWS_BEDROCK,
        "aws.bedrock, " + GenAiProviderNameIncubatingValues.AWS_BEDROCK,
        "gemini, " + GenAiProviderNameIncubatingValues.GCP_GEMINI,
        "google, " + GenAiProviderNameIncubatingValues.GCP_GEMINI,
        "vertex-ai, " + GenAiProviderNameIncubatingValues.GCP_VERTEX_AI,
        "gcp.gen_ai, " + GenAiProviderNameIncubatingValues.GCP_GEN_AI,
        "cohere, " + GenAiProviderNameIncubatingValues.COHERE,
        "deepseek, " + GenAiProviderNameIncubatingValues.DEEPSEEK,
        "groq, " + GenAiProviderNameIncubatingValues.GROQ,
        "watsonx, " + GenAiProviderNameIncubatingValues.IBM_WATSONX_AI,
        "mistral, " + GenAiProviderNameIncubatingValues.MISTRAL_AI,
        "perplexity, " + GenAiProviderNameIncubatingValues.PERPLEXITY,
        "xai, " + GenAiProviderNameIncubatingValues.X_AI,
        "Cerebras, cerebras",
        "unknown, unknown",
        "_other, _other",
    })
    void providersAreNamedByTheirWellKnownValue(String provider, String expected) {
        assertThat(GenAiConventions.providerName(provider)).isEqualTo(expected);
    }
}

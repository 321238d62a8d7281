package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.metrics.GenAiConventions.Kind;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiOperationNameIncubatingValues;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiProviderNameIncubatingValues;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiSystemIncubatingValues;
import io.opentelemetry.semconv.incubating.GenAiIncubatingAttributes.GenAiTokenTypeIncubatingValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /** Every deprecated name OpenTelemetry's constants still carry is in the table, renamed to the current constant. */
    @Test
    @SuppressWarnings("deprecation")
    void theRenamedTableMapsTheDeprecatedNamesToTheCurrentOnes() {
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE, GenAiIncubatingAttributes.GEN_AI_SYSTEM.getKey()))
                .isEqualTo(GenAiIncubatingAttributes.GEN_AI_PROVIDER_NAME.getKey());
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE, GenAiIncubatingAttributes.GEN_AI_USAGE_PROMPT_TOKENS.getKey()))
                .isEqualTo(GenAiIncubatingAttributes.GEN_AI_USAGE_INPUT_TOKENS.getKey());
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE,
                GenAiIncubatingAttributes.GEN_AI_USAGE_COMPLETION_TOKENS.getKey()))
                .isEqualTo(GenAiIncubatingAttributes.GEN_AI_USAGE_OUTPUT_TOKENS.getKey());
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE,
                GenAiIncubatingAttributes.GEN_AI_OPENAI_REQUEST_SEED.getKey()))
                .isEqualTo(GenAiIncubatingAttributes.GEN_AI_REQUEST_SEED.getKey());
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE,
                GenAiIncubatingAttributes.GEN_AI_OPENAI_REQUEST_RESPONSE_FORMAT.getKey()))
                .isEqualTo(GenAiIncubatingAttributes.GEN_AI_OUTPUT_TYPE.getKey());
        // cache creation: flat, then dotted, now cache_write; both old names lead to the newest
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE, "gen_ai.usage.cache_creation_input_tokens"))
                .isEqualTo(GenAiConventions.Renamed.current(Kind.ATTRIBUTE, "gen_ai.usage.cache_creation.input_tokens"))
                .isEqualTo("gen_ai.usage.cache_write.input_tokens");
        assertThat(GenAiConventions.Renamed.current(Kind.TOKEN_TYPE, "completion")).isEqualTo(GenAiTokenTypeIncubatingValues.OUTPUT);
        for (String old : new String[] {GenAiSystemIncubatingValues.AZ_AI_OPENAI, GenAiSystemIncubatingValues.AZ_AI_INFERENCE,
            GenAiSystemIncubatingValues.XAI, GenAiSystemIncubatingValues.GEMINI, GenAiSystemIncubatingValues.VERTEX_AI}) {
            assertThat(GenAiConventions.Renamed.current(Kind.PROVIDER_NAME, old)).as(old)
                    .isIn(GenAiProviderNameIncubatingValues.AZURE_AI_OPENAI, GenAiProviderNameIncubatingValues.AZURE_AI_INFERENCE,
                            GenAiProviderNameIncubatingValues.X_AI, GenAiProviderNameIncubatingValues.GCP_GEMINI,
                            GenAiProviderNameIncubatingValues.GCP_VERTEX_AI);
        }
        assertThat(GenAiConventions.Renamed.current(Kind.ATTRIBUTE, "gen_ai.request.model")).isEqualTo("gen_ai.request.model");
        for (GenAiConventions.Renamed renamed : GenAiConventions.Renamed.values()) {
            assertThat(GenAiConventions.Renamed.current(renamed.kind(), renamed.now())).as("%s is current", renamed.now())
                    .isEqualTo(renamed.now());
        }
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
        "az.ai.openai, " + GenAiProviderNameIncubatingValues.AZURE_AI_OPENAI,
        "az.ai.inference, " + GenAiProviderNameIncubatingValues.AZURE_AI_INFERENCE,
        "vertex_ai, " + GenAiProviderNameIncubatingValues.GCP_VERTEX_AI,
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

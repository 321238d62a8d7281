package io.agentoutcomes.avro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** {@code basic.auth.credentials.source=SASL_INHERIT}: the registry's basic credentials are the Kafka clients' SASL user. */
class SaslInheritTest {
    private static final String URL = "https://registry.example.com:8081";

    @Test
    void plainLoginModuleUserAndPasswordAreTheRegistrysBasicCredentials() {
        AvroSerdeConfig config = AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "basic.auth.credentials.source", "SASL_INHERIT",
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                        + "username=\"fleet-svc\" password=\"pl4in-secret\";"));

        assertThat(config.authorization()).contains("Basic " + base64("fleet-svc:pl4in-secret"));
    }

    @Test
    void scramLoginModuleUserAndPasswordAreTheRegistrysBasicCredentials() {
        AvroSerdeConfig config = AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "basic.auth.credentials.source", "sasl_inherit",
                "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"scram-user\" password=\"scr4m-secret\";"));

        assertThat(config.authorization()).contains("Basic " + base64("scram-user:scr4m-secret"));
    }

    @Test
    void saslInheritOverridesBasicAuthUserInfo() {
        AvroSerdeConfig config = AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "basic.auth.credentials.source", "SASL_INHERIT", "basic.auth.user.info", "other:ignored",
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                        + "username=\"fleet-svc\" password=\"pl4in-secret\";"));

        assertThat(config.basicAuthUserInfo()).isEqualTo(Optional.of("fleet-svc:pl4in-secret"));
    }

    @Test
    void saslInheritWithoutAJaasConfigIsRefusedSayingWhatItNeeds() {
        assertThatThrownBy(() -> AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "basic.auth.credentials.source", "SASL_INHERIT")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("basic.auth.credentials.source=SASL_INHERIT needs sasl.jaas.config with a username and a "
                        + "password (PlainLoginModule or ScramLoginModule); none is set");
    }

    @Test
    void saslInheritWithALoginModuleWithoutAPasswordIsRefusedWithoutShowingTheConfig() {
        assertThatThrownBy(() -> AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "basic.auth.credentials.source", "SASL_INHERIT",
                "sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
                        + "clientSecret=\"oauth-secret\";")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("basic.auth.credentials.source=SASL_INHERIT needs sasl.jaas.config with a username and a "
                        + "password (PlainLoginModule or ScramLoginModule); its login module has no username and password")
                .hasMessageNotContaining("oauth-secret");
    }

    @Test
    void anUnknownCredentialsSourceIsRefusedNamingTheOnesAccepted() {
        assertThatThrownBy(() -> AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "basic.auth.credentials.source", "KERBEROS")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value KERBEROS for configuration basic.auth.credentials.source: expected USER_INFO, "
                        + "URL or SASL_INHERIT");
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}

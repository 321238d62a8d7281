package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.junit.jupiter.api.Test;

class StartupWaitTest {
    /**
     * A Kafka client that cannot be created says so only in its cause ("Failed to create new KafkaAdminClient"): the
     * wait must show that cause, or an operator waiting for Kafka never learns what is wrong. Here the OAUTHBEARER
     * token endpoint that org.apache.kafka.sasl.oauthbearer.allowed.urls does not list (docs/managed-kafka.md).
     */
    @Test
    void whatTheWaitReportsNamesTheCauseOfAKafkaClientThatCannotBeCreated() {
        assertThat(System.getProperty(BrokerSecurityConfigs.ALLOWED_SASL_OAUTHBEARER_URLS_CONFIG)).isNull();
        Map<String, Object> oauth = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_SSL",
                SaslConfigs.SASL_MECHANISM, "OAUTHBEARER",
                SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS,
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
                SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, "https://127.0.0.1:1/oauth2/v1/token",
                SaslConfigs.SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID, "agent-outcomes",
                SaslConfigs.SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_SECRET, "s3cr3t",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;");
        List<String> reported = new ArrayList<>();
        AtomicInteger tries = new AtomicInteger();

        assertThatThrownBy(() -> StartupWait.until("Kafka at 127.0.0.1:1 (bootstrap.servers)", () -> {
            try (Admin admin = Admin.create(oauth)) {
                return admin;
            }
        }, e -> tries.incrementAndGet() < 2, reported::add, Duration.ofMillis(1))).isInstanceOf(KafkaException.class);

        assertThat(reported).containsExactly("waiting for Kafka at 127.0.0.1:1 (bootstrap.servers): KafkaException: Failed to "
                + "create new KafkaAdminClient, caused by ConfigException: The class "
                + "org.apache.kafka.common.security.oauthbearer.DefaultJwtRetriever defined in the "
                + "sasl.oauthbearer.jwt.retriever.class configuration encountered an error on configure(): Invalid value "
                + "https://127.0.0.1:1/oauth2/v1/token for configuration sasl.oauthbearer.token.endpoint.url: The URL cannot "
                + "be accessed due to restrictions. Update the system property 'org.apache.kafka.sasl.oauthbearer.allowed.urls' "
                + "to allow the URL to be accessed.");
    }

    @Test
    void anExceptionWithoutACauseIsReportedAsItIs() {
        List<String> reported = new ArrayList<>();
        AtomicInteger tries = new AtomicInteger();

        assertThatThrownBy(() -> StartupWait.until("Kafka at broker:9092 (bootstrap.servers)", () -> {
            throw new ConnectException("no bootstrap server accepts connections: broker:9092 (Connection refused)");
        }, e -> tries.incrementAndGet() < 2, reported::add, Duration.ofMillis(1))).isInstanceOf(IllegalStateException.class);

        assertThat(reported).containsExactly("waiting for Kafka at broker:9092 (bootstrap.servers): ConnectException: no "
                + "bootstrap server accepts connections: broker:9092 (Connection refused)");
    }
}

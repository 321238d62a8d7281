package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/managed-kafka.md's OAUTHBEARER section against the Kafka 4.3.1 clients: the system property it names is the one
 * they read, the token endpoint is refused without it (with the message the page quotes), a wildcard does not help, and
 * the exact URL does. The page's URL is swapped for one on this machine's loopback, so nothing leaves it.
 */
class ManagedKafkaOAuthTest {
    private static final String LOOPBACK_TOKEN_URL = "https://127.0.0.1:1/oauth2/v1/token";
    private static final String ALLOWED_URLS = BrokerSecurityConfigs.ALLOWED_SASL_OAUTHBEARER_URLS_CONFIG;

    private final ManagedKafkaPage page = new ManagedKafkaPage();
    private final String section = page.section("OAUTHBEARER (OIDC)");
    private final String allowedBefore = System.getProperty(ALLOWED_URLS);

    @AfterEach
    void restoreTheSystemProperty() {
        if (allowedBefore == null) {
            System.clearProperty(ALLOWED_URLS);
        } else {
            System.setProperty(ALLOWED_URLS, allowedBefore);
        }
    }

    private Map<String, String> properties() {
        return ManagedKafkaPage.properties(ManagedKafkaPage.blocks(section, "properties").get(0));
    }

    /** Every JAVA_OPTS the page gives, in env files and pod specs. */
    private List<String> javaOpts() {
        List<String> opts = new ArrayList<>();
        ManagedKafkaPage.blocks(page.text, "env").stream().map(ManagedKafkaPage::envFile)
                .filter(env -> env.containsKey("JAVA_OPTS")).forEach(env -> opts.add(env.get("JAVA_OPTS")));
        ManagedKafkaPage.blocks(page.text, "yaml").stream().flatMap(block -> ManagedKafkaPage.yaml(block).stream())
                .forEach(document -> document.path("env").forEach(variable -> {
                    if (variable.get("name").asText().equals("JAVA_OPTS")) {
                        opts.add(variable.get("value").asText());
                    }
                }));
        return opts;
    }

    @Test
    void javaOptsKeepsTheImagesOwnOptionAndAllowsExactlyTheTokenEndpointUnderTheNameKafkaReads() {
        List<String> opts = javaOpts();
        String url = properties().get(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL);

        assertThat(opts).hasSize(2).containsOnly(DockerFiles.dockerfile().env().get("JAVA_OPTS") + " -D" + ALLOWED_URLS + "=" + url);
        assertThat(ALLOWED_URLS).isEqualTo("org.apache.kafka.sasl.oauthbearer.allowed.urls");
        assertThat(BrokerSecurityConfigs.ALLOWED_SASL_OAUTHBEARER_URLS_DEFAULT).as("nothing allowed by default").isEmpty();
    }

    /** The page's OAUTHBEARER settings, pointed at the loopback, as a Kafka client parses them. */
    private Map<String, Object> clientConfig() {
        Map<String, Object> config = new HashMap<>(properties());
        config.put(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, LOOPBACK_TOKEN_URL);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        config.keySet().retainAll(AdminClientConfig.configNames());
        return config;
    }

    /** What a client's login does first: the page's callback handler configured with the page's settings. */
    private void configureLogin() throws Exception {
        Map<String, Object> values = new HashMap<>(new AdminClientConfig(clientConfig()).values());
        OAuthBearerLoginCallbackHandler handler = new OAuthBearerLoginCallbackHandler();
        try {
            handler.configure(values, "OAUTHBEARER", JaasContext.loadClientContext(values).configurationEntries());
        } finally {
            handler.close();
        }
    }

    @Test
    void withoutTheSystemPropertyTheClientRefusesTheTokenEndpointWithTheMessageThePageQuotes() {
        System.clearProperty(ALLOWED_URLS);

        Throwable refused = catchThrowable(() -> Admin.create(clientConfig()).close());

        assertThat(refused).isInstanceOf(KafkaException.class).hasMessage("Failed to create new KafkaAdminClient")
                .hasRootCauseInstanceOf(ConfigException.class);
        String reason = rootCause(refused).getMessage().replace(LOOPBACK_TOKEN_URL,
                properties().get(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL));
        assertThat(section.replaceAll("\\s+", " ")).contains(reason);
    }

    @Test
    void aWildcardDoesNotAllowTheTokenEndpointAndTheExactUrlAmongOthersDoes() {
        System.setProperty(ALLOWED_URLS, "*");
        assertThat(catchThrowable(this::configureLogin)).as("no wildcard in 4.3.1").isInstanceOf(ConfigException.class);

        System.setProperty(ALLOWED_URLS, "https://127.0.0.1:1/oauth2/v1/token/");
        assertThat(catchThrowable(this::configureLogin)).as("compared exactly").isInstanceOf(ConfigException.class);

        System.setProperty(ALLOWED_URLS, "https://idp.example.com/token, " + LOOPBACK_TOKEN_URL + " ");
        assertThatCode(this::configureLogin).doesNotThrowAnyException();
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}

package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.EnvironmentVariables;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.security.auth.spi.LoginModule;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/managed-kafka.md's examples, read as the service reads them: each provider's properties file and environment
 * give the same settings, load as an external cluster's configuration, name only declared or honoured settings, hide
 * their secrets, and name classes that exist in the Kafka clients.
 */
class ManagedKafkaExamplesTest {
    private static final List<String> ENV_FILE_PROVIDERS = List.of("Confluent Cloud", "Amazon MSK", "Aiven", "OAUTHBEARER (OIDC)");
    private static final List<String> PROVIDERS = List.of("Confluent Cloud", "Amazon MSK", "Aiven", "Strimzi", "OAUTHBEARER (OIDC)");
    /** What the User Operator puts in a KafkaUser's Secret and the Cluster Operator in the cluster CA's. */
    private static final Set<String> USER_SECRET_KEYS = Set.of("password", "sasl.jaas.config", "ca.crt", "user.crt", "user.key",
            "user.p12", "user.password");
    private static final Set<String> CLUSTER_CA_KEYS = Set.of("ca.crt", "ca.p12", "ca.password");

    private final ManagedKafkaPage page = new ManagedKafkaPage();

    @Test
    void eachEnvironmentGivesExactlyTheSettingsOfItsPropertiesFile() {
        for (String provider : ENV_FILE_PROVIDERS) {
            String section = page.section(provider);
            List<ManagedKafkaPage.Block> files = ManagedKafkaPage.blocks(section, "properties");
            List<ManagedKafkaPage.Block> envs = ManagedKafkaPage.blocks(section, "env");
            assertThat(files).as(provider).hasSize(1);
            assertThat(envs).as(provider).hasSize(1);

            assertThat(EnvironmentVariables.settings(ManagedKafkaPage.envFile(envs.get(0))))
                    .as(provider).isEqualTo(ManagedKafkaPage.properties(files.get(0)));
        }
    }

    @Test
    void strimzisPodEnvironmentsGiveThePropertiesFilesSettingsFromTheOperatorsSecretsAndMountedFiles() {
        String section = page.section("Strimzi");
        JsonNode user = ManagedKafkaPage.yaml(ManagedKafkaPage.blocks(section, "yaml").get(0)).get(0);
        assertThat(user.get("kind").asText()).isEqualTo("KafkaUser");
        String userSecret = user.get("metadata").get("name").asText();
        String caSecret = user.get("metadata").get("labels").get("strimzi.io/cluster").asText() + "-cluster-ca-cert";
        List<JsonNode> pods = ManagedKafkaPage.blocks(section, "yaml").stream().map(ManagedKafkaPage::yaml)
                .map(documents -> documents.get(0)).filter(document -> document.has("env")).toList();
        List<ManagedKafkaPage.Block> files = ManagedKafkaPage.blocks(section, "properties");
        assertThat(pods).hasSize(2);
        assertThat(files).hasSize(2);

        for (int i = 0; i < pods.size(); i++) {
            JsonNode pod = pods.get(i);
            Map<String, String> properties = ManagedKafkaPage.properties(files.get(i));
            Map<String, String> literal = new LinkedHashMap<>();
            Map<String, String> fromSecrets = new LinkedHashMap<>();
            Map<String, String> secretOfMount = new HashMap<>();
            pod.get("volumes").forEach(volume -> pod.get("volumeMounts").forEach(mount -> {
                if (mount.get("name").asText().equals(volume.get("name").asText())) {
                    secretOfMount.put(mount.get("mountPath").asText(), volume.get("secret").get("secretName").asText());
                }
            }));
            for (JsonNode variable : pod.get("env")) {
                String setting = EnvironmentVariables.setting(variable.get("name").asText()).orElseThrow();
                if (variable.has("value")) {
                    literal.put(setting, variable.get("value").asText());
                } else {
                    JsonNode ref = variable.get("valueFrom").get("secretKeyRef");
                    String secret = ref.get("name").asText();
                    assertThat(secret).isIn(userSecret, caSecret);
                    assertThat(ref.get("key").asText()).isIn(secret.equals(caSecret) ? CLUSTER_CA_KEYS : USER_SECRET_KEYS);
                    fromSecrets.put(setting, secret);
                }
            }
            assertThat(literal.keySet()).as("pod %s", i).doesNotContainAnyElementsOf(fromSecrets.keySet());
            Map<String, String> both = new HashMap<>(literal);
            fromSecrets.forEach((setting, secret) -> both.put(setting, properties.get(setting)));
            assertThat(both).as("pod %s against its properties file", i).isEqualTo(properties);
            literal.forEach((setting, value) -> {
                if (setting.endsWith(".location")) {
                    Path file = Path.of(value);
                    String secret = secretOfMount.get(file.getParent().toString());
                    assertThat(secret).as("%s lies under a mounted Secret", value).isNotNull();
                    assertThat(file.getFileName().toString()).isIn(secret.equals(caSecret) ? CLUSTER_CA_KEYS : USER_SECRET_KEYS);
                }
            });
            if (properties.containsKey(SaslConfigs.SASL_JAAS_CONFIG)) {
                assertThat(jaasOptions(properties.get(SaslConfigs.SASL_JAAS_CONFIG))).containsEntry("username", userSecret);
            }
        }
    }

    @Test
    void everyPropertiesFileLoadsAsAnExternalClusterWithOnlyDeclaredOrHonouredSettingsAndItsSecretsHidden(@TempDir Path dir)
            throws Exception {
        Set<String> registry = registryClientSettings();
        for (String provider : PROVIDERS) {
            for (ManagedKafkaPage.Block block : ManagedKafkaPage.blocks(page.section(provider), "properties")) {
                Path file = Files.writeString(dir.resolve("kafka.properties"), block.text());
                Map<String, String> properties = ManagedKafkaPage.properties(block);
                AppConfig config = ConfigLoader.load(Optional.of(file), Map.of(), Map.of());

                assertThat(config.embeddedKafka()).as(provider).isFalse();
                assertThat(properties.keySet()).as(provider).allSatisfy(setting -> assertThat(
                        AgentOutcomesConfig.isDeclared(setting) || registry.contains(setting))
                        .as("%s is declared by the service or Kafka, or read by the registry client", setting).isTrue());
                Map<String, Object> admin = new HashMap<>(config.kafka());
                admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers().orElseThrow());
                admin.keySet().retainAll(AdminClientConfig.configNames());
                new AdminClientConfig(admin);
                properties.forEach((setting, value) -> {
                    if (setting.endsWith("password") || setting.endsWith("secret") || setting.endsWith(".jaas.config")
                            || setting.equals(AvroSerdeConfig.BASIC_AUTH_USER_INFO)) {
                        assertThat(config.kafkaForDisplay()).as(provider).containsEntry(setting, "[hidden]");
                        assertThat(config.toString()).as(provider).doesNotContain(value);
                    }
                });
                config.schemaRegistryUrl().ifPresent(url -> {
                    Map<String, Object> serde = new HashMap<>(config.kafka());
                    serde.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL, url);
                    assertThat(AvroSerdeConfig.from(serde).basicAuthUserInfo()).as(provider)
                            .isEqualTo(Optional.ofNullable(properties.get(AvroSerdeConfig.BASIC_AUTH_USER_INFO)));
                });
            }
        }
    }

    @Test
    void theLoginModulesAndCallbackHandlersNamedAreTheKafkaClientsOwn() throws Exception {
        List<String> jaas = new ArrayList<>();
        List<String> handlers = new ArrayList<>();
        for (String provider : PROVIDERS) {
            for (ManagedKafkaPage.Block block : ManagedKafkaPage.blocks(page.section(provider), "properties")) {
                Map<String, String> properties = ManagedKafkaPage.properties(block);
                Optional.ofNullable(properties.get(SaslConfigs.SASL_JAAS_CONFIG)).ifPresent(jaas::add);
                Optional.ofNullable(properties.get(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS)).ifPresent(handlers::add);
            }
        }
        assertThat(jaas).hasSize(4);
        for (String config : jaas) {
            String module = JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(config)))
                    .configurationEntries().get(0).getLoginModuleName();
            assertThat(LoginModule.class.isAssignableFrom(Class.forName(module))).as(module).isTrue();
        }
        assertThat(handlers).containsExactly("org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
        assertThat(AuthenticateCallbackHandler.class.isAssignableFrom(Class.forName(handlers.get(0)))).isTrue();
        assertThatThrownBy(() -> Class.forName("org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler"))
                .as("Kafka 3's name, which the page says is gone").isInstanceOf(ClassNotFoundException.class);
    }

    /** Every name the registry client reads (AvroSerdeConfig's constants) is named on the page's list of them. */
    @Test
    void thePageListsEveryNameTheRegistryClientHonours() throws Exception {
        String section = page.text.substring(page.text.indexOf("**The schema registry client**"),
                page.text.indexOf("**JVM options.**"));
        assertThat(registryClientSettings()).isNotEmpty().allSatisfy(setting -> assertThat(section.replaceAll("\\s+", " "))
                .contains(setting.startsWith("schema.registry.ssl.truststore.") && !setting.endsWith("location")
                        ? "." + setting.substring(setting.lastIndexOf('.') + 1) : setting));
    }

    /** The README, docs/operations.md and this page's own links lead to files and headings that exist. */
    @Test
    void theReadmeAndTheOperationsPageLinkThisPageAndItsLinksResolve() throws Exception {
        assertThat(Files.readString(Path.of("..", "README.md"))).contains("](docs/managed-kafka.md)");
        assertThat(Files.readString(Path.of("..", "docs", "operations.md"))).contains("](managed-kafka.md)");
        Matcher link = Pattern.compile("\\]\\(([a-z-]*\\.md)?(?:#([a-z0-9_-]+))?\\)").matcher(page.text);
        int links = 0;
        while (link.find()) {
            Path target = link.group(1) == null ? ManagedKafkaPage.FILE : ManagedKafkaPage.FILE.resolveSibling(link.group(1));
            assertThat(target).as(link.group()).exists();
            if (link.group(2) != null) {
                assertThat(AlertRulesTest.headingAnchors(Files.readString(target))).as(link.group()).contains(link.group(2));
            }
            links++;
        }
        assertThat(links).isGreaterThanOrEqualTo(10);
    }

    static Map<String, String> jaasOptions(String config) {
        Map<String, String> options = new LinkedHashMap<>();
        JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(config))).configurationEntries()
                .get(0).getOptions().forEach((key, value) -> options.put(key, String.valueOf(value)));
        return options;
    }

    /** The setting names AvroSerdeConfig declares as constants: what the service's registry client reads. */
    static Set<String> registryClientSettings() throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Field field : AvroSerdeConfig.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                names.add((String) field.get(null));
            }
        }
        return names;
    }
}

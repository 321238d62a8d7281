package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.EnvironmentVariables;
import io.agentoutcomes.app.config.LogFormat;
import io.agentoutcomes.app.http.HttpSecurity;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docker/ cannot run here (no container engine): what can be checked without one. The instances' secrets come from the
 * operator's environment (Compose's variable substitution, done here as Compose does it).
 */
class DockerComposeTest {
    private final JsonNode compose = DockerFiles.yaml("compose.yaml");

    private List<String> instances() {
        List<String> instances = new ArrayList<>();
        compose.get("services").fields().forEachRemaining(service -> {
            if (service.getValue().path("build").path("dockerfile").asText().equals("docker/Dockerfile")) {
                instances.add(service.getKey());
            }
        });
        return instances;
    }

    /** The secrets an operator sets before {@code docker compose up} (the top of compose.yaml says how). */
    private static final Map<String, String> OPERATOR = Map.of(
            "AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO", "ops:0f8c6a3e9d1b47c2",
            "AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD", "5e2d7b91c4a06f38");

    /**
     * The settings an instance runs with: the image's ENV, then the compose service's environment over it, its
     * variables substituted from {@code variables} as Compose substitutes them.
     */
    private Map<String, String> environmentOf(String instance, Map<String, String> variables) {
        Map<String, String> env = new HashMap<>(DockerFiles.dockerfile().env());
        DockerFiles.environment(compose.get("services").get(instance))
                .forEach((name, value) -> env.put(name, DockerFiles.interpolate(value, variables)));
        return env;
    }

    private Map<String, String> environmentOf(String instance) {
        return environmentOf(instance, OPERATOR);
    }

    @Test
    void composeRunsTwoInstancesOfTheImageBesideThreeKraftBrokersAndTheSchemaRegistry() {
        assertThat(instances()).containsExactly("agent-outcomes-1", "agent-outcomes-2");
        assertThat(compose.get("services").get("kafka-1").get("image").asText()).startsWith("apache/kafka:");
        assertThat(compose.get("services").get("schema-registry").get("image").asText()).startsWith("confluentinc/cp-schema-registry:");
        for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
            Map<String, String> env = DockerFiles.environment(compose.get("services").get(broker));
            assertThat(env).containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                    .containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093")
                    .containsEntry("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT");
            assertThat(listeners(env, "KAFKA_ADVERTISED_LISTENERS")).containsEntry("PLAINTEXT", broker + ":29092");
        }
    }

    @Test
    void everyAgentOutcomesVariableOfComposeAndTheImageIsARealSetting() {
        List<String> variables = new ArrayList<>(DockerFiles.dockerfile().env().keySet());
        instances().forEach(instance -> variables.addAll(DockerFiles.environment(compose.get("services").get(instance)).keySet()));
        List<String> settings = variables.stream().filter(v -> v.startsWith(EnvironmentVariables.PREFIX))
                .map(v -> EnvironmentVariables.setting(v).orElseThrow()).toList();

        assertThat(settings).isNotEmpty().allSatisfy(setting -> assertThat(AgentOutcomesConfig.isDeclared(setting))
                .as(setting + " is declared by AgentOutcomesConfig or Kafka's clients").isTrue());
        assertThat(settings).contains("bootstrap.servers", "schema.registry.url", "http.host", "log.format", "num.standby.replicas");
    }

    @Test
    void eachInstanceLoadsAsAnExternalClusterAndRegistryConfiguration() {
        for (String instance : instances()) {
            AppConfig config = ConfigLoader.load(Optional.empty(), environmentOf(instance), Map.of());

            assertThat(config.embeddedKafka()).isFalse();
            assertThat(config.embeddedRegistry()).isFalse();
            assertThat(config.bootstrapServers()).hasValue("kafka-1:29092,kafka-2:29092,kafka-3:29092");
            assertThat(config.schemaRegistryUrl()).hasValue("http://schema-registry:8081");
            assertThat(config.httpHost()).isEqualTo("0.0.0.0");
            assertThat(config.httpAdvertisedHost()).isEqualTo(instance);
            assertThat(config.replicationFactor()).isEqualTo((short) 3);
            assertThat(config.logFormat()).isEqualTo(LogFormat.JSON);
            assertThat(config.kafka()).containsEntry("num.standby.replicas", "1");
        }
    }

    @Test
    void eachInstanceRequiresCredentialsAndSpeaksHttpsWithTheKeystoreMountedFromDockerTls() {
        for (String instance : instances()) {
            HttpSecurity security = ConfigLoader.load(Optional.empty(), environmentOf(instance), Map.of()).httpSecurity();
            List<String> mounts = new ArrayList<>();
            compose.get("services").get(instance).get("volumes").forEach(v -> mounts.add(v.asText()));

            assertThat(security.problems()).as(instance).isEmpty();
            assertThat(security.authRequired()).isTrue();
            assertThat(security.basicUserInfo()).hasValue("ops:0f8c6a3e9d1b47c2");
            assertThat(security.bearerToken()).as("an empty token is not set").isEmpty();
            assertThat(security.tls()).isTrue();
            assertThat(mounts).contains("./tls:/etc/agent-outcomes/tls:ro");
            assertThat(security.keystore().orElseThrow().location()).isEqualTo(Path.of("/etc/agent-outcomes/tls/http.p12"));
            assertThat(security.keystore().orElseThrow().password()).hasValue("5e2d7b91c4a06f38");
            assertThat(security.truststore()).isEqualTo(security.keystore());
        }
    }

    @Test
    void withoutTheOperatorsSecretsComposeRefusesToStartTheInstances() {
        for (String instance : instances()) {
            assertThatThrownBy(() -> environmentOf(instance, Map.of("AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD", "x")))
                    .hasMessageStartingWith("required variable AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO is missing a value: ");
            assertThatThrownBy(() -> environmentOf(instance, Map.of("AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO", "u:p",
                    "AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD", "")))
                    .hasMessageStartingWith("required variable AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD is missing a value: ");
        }
        assertThat(compose.toString()).doesNotContain(OPERATOR.values().toArray(String[]::new));
    }

    /** docker/make-tls.sh, run as the top of compose.yaml says, makes a keystore whose certificate names both instances. */
    @Test
    void theKeystoreScriptMakesACertificateForEveryInstanceAndItsPemForPrometheus(@TempDir Path tls) throws Exception {
        ProcessBuilder script = new ProcessBuilder(DockerFiles.DOCKER.resolve("make-tls.sh").toAbsolutePath().toString())
                .redirectErrorStream(true);
        script.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
                + script.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        script.environment().put("TLS_DIR", tls.toString());
        script.environment().put("AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD", OPERATOR.get("AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD"));
        Process process = script.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        KeyStore keystore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.resolve("http.p12"))) {
            keystore.load(in, OPERATOR.get("AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD").toCharArray());
        }
        X509Certificate certificate = (X509Certificate) keystore.getCertificate("agent-outcomes");
        List<String> names = new ArrayList<>();
        certificate.getSubjectAlternativeNames().forEach(name -> names.add(String.valueOf(name.get(1))));
        for (String instance : instances()) {
            assertThat(names).contains(ConfigLoader.load(Optional.empty(), environmentOf(instance), Map.of()).httpAdvertisedHost());
        }
        assertThat(names).contains("localhost", "127.0.0.1");
        X509Certificate pem;
        try (InputStream in = Files.newInputStream(tls.resolve("http.crt"))) {
            pem = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        assertThat(pem).isEqualTo(certificate);
        assertThat(output).doesNotContain(OPERATOR.get("AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD"));
    }

    @Test
    void everyPublishedPortIsOnTheHostsLoopbackOnly() {
        List<String> ports = new ArrayList<>();
        compose.get("services").forEach(service -> service.path("ports").forEach(port -> ports.add(port.asText())));

        assertThat(ports).isNotEmpty().allSatisfy(port -> assertThat(port).startsWith("127.0.0.1:"));
    }

    private static final List<String> BROKERS = List.of("kafka-1", "kafka-2", "kafka-3");

    /** A listener list (NAME://host:port,...) as host:port by listener name. */
    private static Map<String, String> listeners(Map<String, String> env, String variable) {
        Map<String, String> listeners = new LinkedHashMap<>();
        for (String listener : env.get(variable).split(",")) {
            String[] parts = listener.split("://", 2);
            listeners.put(parts[0], parts[1]);
        }
        return listeners;
    }

    private static int port(String hostAndPort) {
        return Integer.parseInt(hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1));
    }

    /** A service's published ports, host port by container port ("127.0.0.1:9093:9092"). */
    private Map<Integer, Integer> published(String service) {
        Map<Integer, Integer> ports = new LinkedHashMap<>();
        compose.get("services").get(service).path("ports").forEach(port -> {
            String[] parts = port.asText().split(":");
            ports.put(Integer.parseInt(parts[parts.length - 1]), Integer.parseInt(parts[parts.length - 2]));
        });
        return ports;
    }

    /**
     * As cp-all-in-one: each broker advertises a host listener, localhost:&lt;port&gt;, published on that port of this
     * host, beside the listener the containers use; so kcat and fleet on this host reach every broker.
     */
    @Test
    void everyBrokerIsReachableFromThisHostAtTheHostListenerItAdvertises() {
        List<Integer> hostPorts = new ArrayList<>();
        for (String broker : BROKERS) {
            Map<String, String> env = DockerFiles.environment(compose.get("services").get(broker));
            String advertised = listeners(env, "KAFKA_ADVERTISED_LISTENERS").get("PLAINTEXT_HOST");
            String listening = listeners(env, "KAFKA_LISTENERS").get("PLAINTEXT_HOST");

            assertThat(advertised).as(broker).startsWith("localhost:");
            assertThat(env.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").split(",")).contains("PLAINTEXT_HOST:PLAINTEXT");
            assertThat(published(broker)).as(broker).containsEntry(port(listening), port(advertised));
            hostPorts.add(port(advertised));
        }
        assertThat(hostPorts).doesNotHaveDuplicates().contains(9092);
        String internal = String.join(",", BROKERS.stream().map(broker -> listeners(DockerFiles.environment(
                compose.get("services").get(broker)), "KAFKA_ADVERTISED_LISTENERS").get("PLAINTEXT")).toList());
        assertThat(DockerFiles.environment(compose.get("services").get("schema-registry")))
                .containsEntry("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://" + internal.replace(",", ",PLAINTEXT://"));
        instances().forEach(instance -> assertThat(environmentOf(instance)).containsEntry("AGENT_OUTCOMES_BOOTSTRAP_SERVERS", internal));
    }

    @Test
    void theRegistryIsOnHostPort8081AsForEveryConfluentClientAndNoInstanceTakesThatPort() {
        assertThat(published("schema-registry")).containsExactly(Map.entry(8081, 8081));
        assertThat(DockerFiles.environment(compose.get("services").get("schema-registry")))
                .containsEntry("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081");
        List<Integer> taken = new ArrayList<>();
        compose.get("services").fieldNames().forEachRemaining(service -> taken.addAll(published(service).values()));
        assertThat(taken).doesNotHaveDuplicates();
        instances().forEach(instance -> assertThat(published(instance).values()).doesNotContain(8081, 9092, 9093, 9094));
    }

    /** The command the docs give for traffic into the stack names the brokers' host listener and the registry's port. */
    @Test
    void theDocumentedFleetCommandReachesTheBrokersAndTheRegistryThisHostSees() throws Exception {
        String docs = Files.readString(Path.of("..", "docs", "operations.md")) + Files.readString(DockerFiles.DOCKER.resolve("compose.yaml"));
        Matcher fleet = Pattern.compile(
                "agent-outcomes\\.jar fleet --bootstrap-servers (\\S+)\\s+(?:\\\\\\s+)?(?:#\\s+)?--schema-registry-url (\\S+)").matcher(docs);
        int commands = 0;
        while (fleet.find()) {
            commands++;
            String bootstrap = fleet.group(1);
            assertThat(bootstrap).startsWith("localhost:");
            assertThat(BROKERS.stream().map(broker -> listeners(DockerFiles.environment(compose.get("services").get(broker)),
                    "KAFKA_ADVERTISED_LISTENERS").get("PLAINTEXT_HOST"))).contains(bootstrap);
            URI registry = URI.create(fleet.group(2));
            assertThat(registry.getHost()).isEqualTo("localhost");
            assertThat(published("schema-registry").values()).contains(registry.getPort());
        }
        assertThat(commands).as("the fleet command in docs/operations.md and compose.yaml").isEqualTo(2);
    }

    @Test
    void brokersRegistryAndInstancesHaveHealthChecksTheInstancesOnReadiness() {
        DockerFiles.Dockerfile image = DockerFiles.dockerfile();
        for (String broker : BROKERS) {
            JsonNode check = compose.get("services").get(broker).get("healthcheck");
            Map<String, String> env = DockerFiles.environment(compose.get("services").get(broker));
            assertThat(check.get("test").get(1).asText()).contains("kafka-broker-api-versions.sh --bootstrap-server localhost:"
                    + port(listeners(env, "KAFKA_LISTENERS").get("PLAINTEXT")));
        }
        assertThat(compose.get("services").get("schema-registry").get("healthcheck").get("test").toString())
                .contains("http://localhost:8081/");
        for (String instance : instances()) {
            List<String> test = new ArrayList<>();
            compose.get("services").get(instance).get("healthcheck").get("test").forEach(word -> test.add(word.asText()));
            assertThat(test).containsExactly("CMD", image.healthcheck().get(0), "/health/ready");
        }
    }

    @Test
    void theInstancesStartOnceBrokersAndRegistryAreHealthyAndTheRegistryOnceTheBrokersAre() {
        for (String broker : BROKERS) {
            assertThat(compose.get("services").get("schema-registry").get("depends_on").get(broker).get("condition").asText())
                    .isEqualTo("service_healthy");
        }
        for (String instance : instances()) {
            JsonNode dependsOn = compose.get("services").get(instance).get("depends_on");
            for (String dependency : List.of("kafka-1", "kafka-2", "kafka-3", "schema-registry")) {
                assertThat(dependsOn.get(dependency).get("condition").asText()).as(instance + " on " + dependency)
                        .isEqualTo("service_healthy");
            }
        }
    }

    /** The image's HEALTHCHECK: the script docker/healthcheck.sh, copied in, on liveness (its default path). */
    @Test
    void theImageChecksItsLivenessWithTheHealthCheckScriptItCopiesIn() throws Exception {
        DockerFiles.Dockerfile image = DockerFiles.dockerfile();
        List<String> check = image.healthcheck();

        assertThat(check).hasSize(1);
        assertThat(image.sourceOf(check.get(0))).isEqualTo("docker/healthcheck.sh");
        assertThat(Files.readString(DockerFiles.DOCKER.resolve("healthcheck.sh"))).contains("path=\"${1:-/health/live}\"");
        assertThat(Files.isExecutable(DockerFiles.DOCKER.resolve("healthcheck.sh"))).isTrue();
        List<String> admitted = Files.readAllLines(DockerFiles.DOCKER.resolve("Dockerfile.dockerignore")).stream()
                .filter(line -> line.startsWith("!")).map(line -> line.substring(1)).toList();
        assertThat(admitted).as("every file the image copies from the build context").containsAll(image.contextCopies().keySet());
    }

    @Test
    void prometheusScrapesBothInstancesOnTheirHttpPort() {
        JsonNode job = DockerFiles.yaml("prometheus/prometheus.yml").get("scrape_configs").get(0);
        List<String> targets = new ArrayList<>();
        job.get("static_configs").get(0).get("targets").forEach(t -> targets.add(t.asText()));
        List<String> mounts = new ArrayList<>();
        compose.get("services").get("prometheus").get("volumes").forEach(v -> mounts.add(v.asText()));

        assertThat(job.get("scheme").asText()).isEqualTo("https");
        assertThat(mounts).contains("./tls/http.crt:" + job.get("tls_config").get("ca_file").asText() + ":ro");
        assertThat(job.get("metrics_path").asText()).isEqualTo("/metrics");
        assertThat(targets).containsExactlyElementsOf(instances().stream()
                .map(instance -> instance + ":" + ConfigLoader.load(Optional.empty(), environmentOf(instance), Map.of()).httpPort())
                .toList());
        assertThat(compose.get("services").get("prometheus").get("volumes").get(0).asText())
                .isEqualTo("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
    }

    @Test
    void grafanaIsProvisionedWithPrometheusAndTheDashboardFile() {
        JsonNode datasource = DockerFiles.yaml("grafana/provisioning/datasources/prometheus.yaml").get("datasources").get(0);
        JsonNode provider = DockerFiles.yaml("grafana/provisioning/dashboards/agent-outcomes.yaml").get("providers").get(0);
        List<String> mounts = new ArrayList<>();
        compose.get("services").get("grafana").get("volumes").forEach(v -> mounts.add(v.asText()));

        assertThat(datasource.get("url").asText()).isEqualTo("http://prometheus:9090");
        assertThat(compose.get("services").has("prometheus")).isTrue();
        assertThat(mounts).contains("./grafana/provisioning:/etc/grafana/provisioning:ro",
                "./grafana/dashboards:" + provider.get("options").get("path").asText() + ":ro");
        assertThat(Files.isRegularFile(DockerFiles.DOCKER.resolve("grafana/dashboards/agent-outcomes.json"))).isTrue();
        assertThat(DockerFiles.json("grafana/dashboards/agent-outcomes.json").get("uid").asText()).isEqualTo("agent-outcomes");
    }

    @Test
    void theImageRunsTheShadedJarAsANonRootUserListeningOnEveryInterface() {
        DockerFiles.Dockerfile image = DockerFiles.dockerfile();

        assertThat(image.copies()).containsEntry("app/target/agent-outcomes.jar", "/opt/agent-outcomes/agent-outcomes.jar")
                .containsEntry("docker/entrypoint.sh", "/opt/agent-outcomes/entrypoint.sh");
        assertThat(image.execForm("ENTRYPOINT")).containsExactly("/opt/agent-outcomes/entrypoint.sh");
        assertThat(image.execForm("CMD")).containsExactly("run");
        assertThat(image.last("USER")).isEqualTo("10001:10001");
        assertThat(image.env()).containsEntry("AGENT_OUTCOMES_HTTP_HOST", "0.0.0.0").containsEntry("OTEL_JAVAAGENT_ENABLED", "false");
    }

    @Test
    void theOperationsPageDescribesTheDashboardGrafanaIsGiven() throws Exception {
        JsonNode panels = DockerFiles.json("grafana/dashboards/agent-outcomes.json").get("panels");
        String operations = Files.readString(Path.of("..", "docs", "operations.md")).replaceAll("\\s+", " ");

        assertThat(panels.size()).isPositive();
        assertThat(operations).doesNotContain("placeholder").contains("has " + panels.size() + " panels");
        panels.forEach(panel -> assertThat(operations).contains(panel.get("title").asText()));
    }
}

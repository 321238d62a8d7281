package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.EnvironmentVariables;
import io.agentoutcomes.app.config.LogFormat;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** docker/ cannot run here (no container engine): what can be checked without one. */
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

    /** The settings an instance runs with: the image's ENV, then the compose service's environment over it. */
    private Map<String, String> environmentOf(String instance) {
        Map<String, String> env = new HashMap<>(DockerFiles.dockerfile().env());
        env.putAll(DockerFiles.environment(compose.get("services").get(instance)));
        return env;
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
                    .containsEntry("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://" + broker + ":9092");
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
            assertThat(config.bootstrapServers()).hasValue("kafka-1:9092,kafka-2:9092,kafka-3:9092");
            assertThat(config.schemaRegistryUrl()).hasValue("http://schema-registry:8081");
            assertThat(config.httpHost()).isEqualTo("0.0.0.0");
            assertThat(config.httpAdvertisedHost()).isEqualTo(instance);
            assertThat(config.replicationFactor()).isEqualTo((short) 3);
            assertThat(config.logFormat()).isEqualTo(LogFormat.JSON);
            assertThat(config.kafka()).containsEntry("num.standby.replicas", "1");
        }
    }

    @Test
    void prometheusScrapesBothInstancesOnTheirHttpPort() {
        JsonNode job = DockerFiles.yaml("prometheus/prometheus.yml").get("scrape_configs").get(0);
        List<String> targets = new ArrayList<>();
        job.get("static_configs").get(0).get("targets").forEach(t -> targets.add(t.asText()));

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
}

package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a cluster's admission would say of docker/kubernetes/, without a cluster: every object validated against the
 * Kubernetes API's OpenAPI schemas and the Prometheus Operator's CRD schema by {@code kubernetes-models} (npm, in
 * interop/kubernetes, each object through its model's {@code .validate()}), and the pod the StatefulSet makes checked
 * against every control of the restricted Pod Security Standard ({@link RestrictedPodSecurity}), which each broken
 * control is shown to fail.
 */
class KubernetesAdmissionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workDir;

    /** The files kustomization.yaml lists, as paths. */
    private static List<Path> manifests() {
        List<Path> files = new ArrayList<>();
        DockerFiles.yaml("kubernetes/kustomization.yaml").get("resources")
                .forEach(file -> files.add(DockerFiles.DOCKER.resolve("kubernetes").resolve(file.asText()).toAbsolutePath()));
        return files;
    }

    @Test
    void everyManifestValidatesAgainstTheKubernetesAndPrometheusOperatorSchemas() throws Exception {
        JsonNode results = validate(manifests());

        List<String> validated = new ArrayList<>();
        for (JsonNode result : results) {
            validated.add(result.get("kind").asText() + "/" + result.get("name").asText());
            assertThat(result.get("errors")).as("schema errors of %s", result.get("file").asText()).isEmpty();
        }
        assertThat(validated).containsExactlyInAnyOrder("StatefulSet/agent-outcomes", "Service/agent-outcomes",
                "Service/agent-outcomes-headless", "PodDisruptionBudget/agent-outcomes", "ServiceMonitor/agent-outcomes");
    }

    /** The schema check can fail: a wrong type, a pull policy that does not exist, a scheme Prometheus does not know. */
    @Test
    void theSchemaCheckRefusesWhatTheApiServerWould() throws Exception {
        ObjectNode statefulSet = (ObjectNode) DockerFiles.yaml("kubernetes/statefulset.yaml").deepCopy();
        ((ObjectNode) statefulSet.get("spec")).put("replicas", "two");
        ((ObjectNode) statefulSet.at("/spec/template/spec/containers/0")).put("imagePullPolicy", "Sometimes");
        ObjectNode monitor = (ObjectNode) DockerFiles.yaml("kubernetes/servicemonitor.yaml").deepCopy();
        ((ObjectNode) monitor.at("/spec/endpoints/0")).put("scheme", "gopher");
        Path broken = workDir.resolve("broken.yaml");
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        Files.writeString(broken, yaml.writeValueAsString(statefulSet) + yaml.writeValueAsString(monitor));

        JsonNode results = validate(List.of(broken));

        assertThat(results).hasSize(2);
        assertThat(results.get(0).get("errors")).extracting(JsonNode::asText).containsExactlyInAnyOrder(
                "/spec/replicas must be integer {\"type\":\"integer\"}",
                "/spec/template/spec/containers/0/imagePullPolicy must be equal to one of the allowed values"
                        + " {\"allowedValues\":[\"Always\",\"IfNotPresent\",\"Never\"]}");
        assertThat(results.get(1).get("errors")).extracting(JsonNode::asText).containsExactly(
                "/spec/endpoints/0/scheme must be equal to one of the allowed values"
                        + " {\"allowedValues\":[\"http\",\"https\",\"HTTP\",\"HTTPS\"]}");
    }

    @Test
    void theStatefulSetsPodPassesEveryRestrictedControl() {
        JsonNode template = DockerFiles.yaml("kubernetes/statefulset.yaml");

        assertThat(RestrictedPodSecurity.check(template.at("/spec/template/metadata"), podSpec(template))).isEmpty();
    }

    /** As kubectl renders the kustomization (images: applied), when kubectl is here; CI machines may not have it. */
    @Test
    void theRenderedKustomizationRunsTheLocalImageAndPassesEveryRestrictedControl() throws Exception {
        Path kubectl = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty()).map(entry -> Path.of(entry, "kubectl")).filter(Files::isExecutable)
                .findFirst().orElse(null);
        Assumptions.assumeTrue(kubectl != null, "kubectl not on the PATH: the rendered kustomization is not checked");
        Process process = new ProcessBuilder(kubectl.toString(), "kustomize", DockerFiles.DOCKER.resolve("kubernetes").toString())
                .redirectError(workDir.resolve("stderr.txt").toFile()).start();
        String rendered = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(workDir.resolve("stderr.txt"))).isZero();

        List<JsonNode> statefulSets = new ArrayList<>();
        YAMLParser parser = new YAMLFactory().createParser(rendered);
        JSON.readValues(parser, JsonNode.class).forEachRemaining(object -> {
            if (object.path("kind").asText().equals("StatefulSet")) {
                statefulSets.add(object);
            }
        });
        assertThat(statefulSets).hasSize(1);
        JsonNode container = statefulSets.get(0).at("/spec/template/spec/containers/0");
        assertThat(container.get("image").asText()).isEqualTo("agent-outcomes:latest");
        assertThat(container.get("imagePullPolicy").asText()).isEqualTo("IfNotPresent");
        assertThat(RestrictedPodSecurity.check(statefulSets.get(0).at("/spec/template/metadata"), podSpec(statefulSets.get(0))))
                .isEmpty();
    }

    static Stream<Arguments> brokenControls() {
        return Stream.of(
                broken("Privilege Escalation", "container agent-outcomes allowPrivilegeEscalation is true, must be false",
                        pod -> container(pod).put("allowPrivilegeEscalation", true)),
                broken("Capabilities", "container agent-outcomes capabilities.drop is [], must include ALL",
                        pod -> ((ObjectNode) container(pod).get("capabilities")).putArray("drop")),
                broken("Capabilities", "container agent-outcomes adds SYS_ADMIN, only NET_BIND_SERVICE may be added",
                        pod -> ((ObjectNode) container(pod).get("capabilities")).putArray("add").add("SYS_ADMIN")),
                broken("Seccomp", "container agent-outcomes seccompProfile.type is unset and the pod's unset, must be"
                        + " RuntimeDefault or Localhost", pod -> ((ObjectNode) pod.get("securityContext")).remove("seccompProfile")),
                broken("Running as Non-root", "container agent-outcomes runAsNonRoot is false and the pod's true, must be true",
                        pod -> container(pod).put("runAsNonRoot", false)),
                broken("Running as Non-root user", "spec.securityContext.runAsUser=0",
                        pod -> ((ObjectNode) pod.get("securityContext")).put("runAsUser", 0)),
                broken("Privileged Containers", "container agent-outcomes privileged=true",
                        pod -> container(pod).put("privileged", true)),
                broken("Host Namespaces", "spec.hostNetwork=true", pod -> pod.put("hostNetwork", true)),
                broken("Volume Types", "volume tmp is a hostPath", pod -> {
                    ObjectNode tmp = (ObjectNode) pod.get("volumes").get(2);
                    tmp.remove("emptyDir");
                    tmp.putObject("hostPath").put("path", "/tmp");
                }));
    }

    private static Arguments broken(String control, String detail, Consumer<ObjectNode> change) {
        return Arguments.of(control, detail, change);
    }

    private static ObjectNode container(ObjectNode pod) {
        return (ObjectNode) pod.at("/containers/0/securityContext");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("brokenControls")
    void aBrokenControlIsRefusedByName(String control, String detail, Consumer<ObjectNode> change) {
        JsonNode statefulSet = DockerFiles.yaml("kubernetes/statefulset.yaml");
        ObjectNode pod = podSpec(statefulSet);
        change.accept(pod);

        assertThat(RestrictedPodSecurity.check(statefulSet.at("/spec/template/metadata"), pod))
                .contains(new RestrictedPodSecurity.Refusal(control, detail));
    }

    /** The pod a StatefulSet makes: its template's spec, with each volumeClaimTemplate as a persistentVolumeClaim volume. */
    private static ObjectNode podSpec(JsonNode statefulSet) {
        ObjectNode spec = statefulSet.at("/spec/template/spec").deepCopy();
        ArrayNode volumes = spec.has("volumes") ? (ArrayNode) spec.get("volumes") : spec.putArray("volumes");
        String pod = statefulSet.at("/metadata/name").asText() + "-0";
        for (JsonNode claim : statefulSet.at("/spec/volumeClaimTemplates")) {
            String name = claim.at("/metadata/name").asText();
            volumes.addObject().put("name", name).putObject("persistentVolumeClaim").put("claimName", name + "-" + pod);
        }
        return spec;
    }

    private JsonNode validate(List<Path> files) throws Exception {
        Path dir = Path.of(System.getProperty("kubernetes.interop.dir", "../interop/kubernetes")).toAbsolutePath();
        List<String> command = new ArrayList<>(List.of("node", "validate.mjs"));
        files.forEach(file -> command.add(file.toString()));
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectError(workDir.resolve("node-stderr.txt").toFile()).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("node finished").isTrue();
        assertThat(process.exitValue()).as("node exit code; stderr: %s", Files.readString(workDir.resolve("node-stderr.txt")))
                .isZero();
        return JSON.readTree(output);
    }
}

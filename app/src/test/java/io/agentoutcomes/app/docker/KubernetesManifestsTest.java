package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.EnvironmentVariables;
import io.agentoutcomes.app.http.HttpSecurity;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
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
 * docker/kubernetes/ cannot be applied here (no cluster): the checks {@link DockerComposeTest} makes of compose, made
 * of the manifests. Every {@code AGENT_OUTCOMES_*} variable is a declared setting, each pod's environment (the image's
 * ENV, then the StatefulSet's, {@code $(POD_NAME)} and the Secrets' values substituted as Kubernetes does) loads as an
 * external cluster and registry with credentials and TLS, the probes ask the right paths on the right port and scheme,
 * and the headless service gives each pod the name it advertises.
 */
class KubernetesManifestsTest {
    private static final String DIR = "kubernetes/";
    /** What the operator puts in the Secrets (docs/operations.md#kubernetes says how). */
    private static final Map<String, String> SECRETS = Map.of(
            "agent-outcomes-http/basic-user-info", "ops:0f8c6a3e9d1b47c2",
            "agent-outcomes-http/keystore-password", "5e2d7b91c4a06f38",
            "agent-outcomes-kafka/sasl-jaas-config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
                    + " username=\"agent-outcomes\" password=\"7c1e94d2a8b05f36\";",
            "agent-outcomes-kafka/truststore-password", "b3f08e6c2d91a547",
            "agent-outcomes-kafka/keystore-password", "41d9c7e05a2b8f63");

    private final Map<String, JsonNode> resources = new LinkedHashMap<>();

    KubernetesManifestsTest() {
        DockerFiles.yaml(DIR + "kustomization.yaml").get("resources").forEach(file -> {
            JsonNode resource = DockerFiles.yaml(DIR + file.asText());
            resources.put(resource.get("kind").asText() + "/" + resource.get("metadata").get("name").asText(), resource);
        });
    }

    private JsonNode statefulSet() {
        return resources.get("StatefulSet/agent-outcomes");
    }

    private JsonNode container() {
        JsonNode containers = statefulSet().at("/spec/template/spec/containers");
        assertThat(containers.size()).isEqualTo(1);
        return containers.get(0);
    }

    /** The headless service the StatefulSet names as its service. */
    private JsonNode headless() {
        return resources.get("Service/" + statefulSet().at("/spec/serviceName").asText());
    }

    /**
     * A pod's environment: the image's ENV, then the container's {@code env} in order, {@code $(VAR)} replaced by the
     * variables defined before it (as Kubernetes does; an undefined one stays as written), the pod's name from its
     * {@code fieldRef} and secrets from {@link #SECRETS}.
     */
    private Map<String, String> environmentOf(String pod) {
        Map<String, String> env = new HashMap<>(DockerFiles.dockerfile().env());
        Map<String, String> defined = new LinkedHashMap<>();
        for (JsonNode variable : container().get("env")) {
            String name = variable.get("name").asText();
            String value;
            if (variable.has("value")) {
                value = substitute(variable.get("value").asText(), defined);
            } else if (variable.at("/valueFrom/fieldRef/fieldPath").asText().equals("metadata.name")) {
                value = pod;
            } else {
                JsonNode secret = variable.at("/valueFrom/secretKeyRef");
                value = SECRETS.get(secret.get("name").asText() + "/" + secret.get("key").asText());
                assertThat(value).as(name + " from an unknown secret key " + secret).isNotNull();
            }
            defined.put(name, value);
        }
        env.putAll(defined);
        return env;
    }

    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private static String substitute(String value, Map<String, String> defined) {
        Matcher reference = REFERENCE.matcher(value);
        StringBuilder result = new StringBuilder();
        while (reference.find()) {
            String given = defined.get(reference.group(1));
            reference.appendReplacement(result, Matcher.quoteReplacement(given != null ? given : reference.group()));
        }
        reference.appendTail(result);
        return result.toString();
    }

    private AppConfig configOf(String pod) {
        return ConfigLoader.load(Optional.empty(), environmentOf(pod), Map.of());
    }

    private List<String> pods() {
        List<String> pods = new ArrayList<>();
        for (int i = 0; i < statefulSet().at("/spec/replicas").asInt(); i++) {
            pods.add(statefulSet().at("/metadata/name").asText() + "-" + i);
        }
        return pods;
    }

    @Test
    void kustomizeListsAStatefulSetItsHeadlessServiceAClientServiceADisruptionBudgetAndAServiceMonitor() {
        assertThat(resources.keySet()).containsExactlyInAnyOrder("StatefulSet/agent-outcomes",
                "Service/agent-outcomes-headless", "Service/agent-outcomes", "PodDisruptionBudget/agent-outcomes",
                "ServiceMonitor/agent-outcomes");
        assertThat(pods()).containsExactly("agent-outcomes-0", "agent-outcomes-1");
    }

    @Test
    void everyAgentOutcomesVariableIsARealSettingAndNoSecretIsWrittenInTheManifest() {
        List<String> settings = new ArrayList<>();
        for (JsonNode variable : container().get("env")) {
            String name = variable.get("name").asText();
            if (!name.startsWith(EnvironmentVariables.PREFIX)) {
                continue;
            }
            String setting = EnvironmentVariables.setting(name).orElseThrow();
            settings.add(setting);
            assertThat(AgentOutcomesConfig.isDeclared(setting)).as(setting + " is declared").isTrue();
            if (AgentOutcomesConfig.isSecret(setting)) {
                assertThat(variable.has("value")).as(setting + " comes from a Secret, not the manifest").isFalse();
                assertThat(variable.at("/valueFrom/secretKeyRef").isMissingNode()).as(setting).isFalse();
            }
        }
        assertThat(settings).contains("bootstrap.servers", "schema.registry.url", "http.advertised.host",
                "http.auth.basic.user.info", "http.tls.keystore.location", "http.tls.keystore.password");
    }

    @Test
    void eachPodLoadsAsAnExternalClusterAndRegistryWithCredentialsAndHttpsAdvertisingItsOwnName() {
        for (String pod : pods()) {
            AppConfig config = configOf(pod);
            HttpSecurity security = config.httpSecurity();

            assertThat(config.embeddedKafka()).isFalse();
            assertThat(config.embeddedRegistry()).isFalse();
            assertThat(config.httpHost()).isEqualTo("0.0.0.0");
            assertThat(config.httpAdvertisedHost()).isEqualTo(pod + "." + headless().at("/metadata/name").asText());
            assertThat(security.problems()).as(pod).isEmpty();
            assertThat(security.authRequired()).isTrue();
            assertThat(security.tls()).isTrue();
            assertThat(security.basicUserInfo()).hasValue(SECRETS.get("agent-outcomes-http/basic-user-info"));
            assertThat(config.kafka()).containsEntry("num.standby.replicas", "1")
                    .containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("sasl.jaas.config", SECRETS.get("agent-outcomes-kafka/sasl-jaas-config"))
                    .containsEntry("ssl.keystore.location", "/etc/agent-outcomes/kafka/keystore.p12")
                    .containsEntry("ssl.truststore.location", "/etc/agent-outcomes/kafka/truststore.p12");
        }
    }

    /** Kubernetes expands $(VAR) only from variables defined earlier in the list: POD_NAME must come first. */
    @Test
    void thePodsNameIsDefinedBeforeTheAdvertisedHostThatUsesIt() {
        List<String> names = new ArrayList<>();
        for (JsonNode variable : container().get("env")) {
            Matcher reference = REFERENCE.matcher(variable.path("value").asText());
            while (reference.find()) {
                assertThat(names).as(variable.get("name").asText() + " uses $(" + reference.group(1) + ")")
                        .contains(reference.group(1));
            }
            names.add(variable.get("name").asText());
        }
    }

    @Test
    void theProbesAskLivenessAndReadinessOnTheHttpPortOverHttps() {
        AppConfig config = configOf("agent-outcomes-0");
        JsonNode port = container().get("ports").get(0);
        String scheme = config.httpSecurity().tls() ? "HTTPS" : "HTTP";

        assertThat(port.get("containerPort").asInt()).isEqualTo(config.httpPort());
        for (String probe : List.of("livenessProbe", "readinessProbe")) {
            JsonNode get = container().get(probe).get("httpGet");
            assertThat(get.get("port").asText()).as(probe).isIn(port.get("name").asText(), String.valueOf(config.httpPort()));
            assertThat(get.get("scheme").asText()).as(probe).isEqualTo(scheme);
        }
        assertThat(container().at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health/live");
        assertThat(container().at("/readinessProbe/httpGet/path").asText()).isEqualTo("/health/ready");
        assertThat(container().has("startupProbe")).as("/health/live answers from the start: no start-up probe needed").isFalse();
    }

    @Test
    void theHeadlessServiceGivesEveryPodItsNameAndPublishesThemBeforeTheyAreReady() {
        JsonNode headless = headless();
        Map<String, String> podLabels = new HashMap<>();
        statefulSet().at("/spec/template/metadata/labels").fields()
                .forEachRemaining(label -> podLabels.put(label.getKey(), label.getValue().asText()));

        assertThat(headless.at("/spec/clusterIP").asText()).isEqualTo("None");
        assertThat(headless.at("/spec/publishNotReadyAddresses").asBoolean()).isTrue();
        assertThat(headless.at("/spec/ports/0/targetPort").asText()).isEqualTo(container().at("/ports/0/name").asText());
        for (JsonNode service : List.of(headless, resources.get("Service/agent-outcomes"),
                resources.get("PodDisruptionBudget/agent-outcomes").at("/spec/selector"))) {
            JsonNode selector = service.has("spec") ? service.at("/spec/selector") : service.get("matchLabels");
            selector.fields().forEachRemaining(label -> assertThat(podLabels).containsEntry(label.getKey(), label.getValue().asText()));
        }
        statefulSet().at("/spec/selector/matchLabels").fields()
                .forEachRemaining(label -> assertThat(podLabels).containsEntry(label.getKey(), label.getValue().asText()));
    }

    @Test
    void statePersistsOnAVolumePerPodAsTheImagesUserAndAStopHasTimeToCommit() {
        Map<String, String> image = DockerFiles.dockerfile().env();
        List<String> mounts = new ArrayList<>();
        container().get("volumeMounts").forEach(mount -> mounts.add(mount.get("name").asText() + ":" + mount.get("mountPath").asText()));
        String user = DockerFiles.dockerfile().last("USER");

        assertThat(mounts).contains("data:" + image.get("AGENT_OUTCOMES_DATA_DIR"));
        assertThat(statefulSet().at("/spec/volumeClaimTemplates/0/metadata/name").asText()).isEqualTo("data");
        assertThat(statefulSet().at("/spec/template/spec/securityContext/runAsUser").asText() + ":"
                + statefulSet().at("/spec/template/spec/securityContext/runAsGroup").asText()).isEqualTo(user);
        assertThat(statefulSet().at("/spec/template/spec/terminationGracePeriodSeconds").asInt())
                .as("more than the 30 s a clean stop may take").isGreaterThan(30);
        AppConfig config = configOf("agent-outcomes-0");
        String keystore = config.httpSecurity().keystore().orElseThrow().location().toString();
        assertThat(mounts.stream().filter(mount -> mount.startsWith("tls:"))
                .map(mount -> mount.substring("tls:".length()))).anySatisfy(path -> assertThat(keystore).startsWith(path + "/"));
    }

    /**
     * A read-only root: the only writable places are the state volume and an emptyDir at /tmp, the JVM's
     * java.io.tmpdir (the image does not move it), where RocksDB extracts its JNI library at start; the Kafka client
     * keystores lie under their mounted Secret.
     */
    @Test
    void theRootIsReadOnlyAndTmpIsAnEmptyDirForRocksDbsLibrary() {
        JsonNode volumes = statefulSet().at("/spec/template/spec/volumes");
        Map<String, String> mounts = new HashMap<>();
        container().get("volumeMounts").forEach(mount -> mounts.put(mount.get("mountPath").asText(), mount.get("name").asText()));
        AppConfig config = configOf("agent-outcomes-0");

        assertThat(container().at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(DockerFiles.dockerfile().env().get("JAVA_OPTS")).doesNotContain("java.io.tmpdir");
        assertThat(mounts).containsEntry("/tmp", "tmp");
        assertThat(volumes).anySatisfy(volume -> {
            assertThat(volume.get("name").asText()).isEqualTo("tmp");
            assertThat(volume.has("emptyDir")).isTrue();
        });
        for (String store : List.of("ssl.keystore.location", "ssl.truststore.location")) {
            String file = String.valueOf(config.kafka().get(store));
            String directory = file.substring(0, file.lastIndexOf('/'));
            String volume = mounts.get(directory);
            assertThat(volume).as(store + " under a mount").isEqualTo("kafka-tls");
            assertThat(volumes).anySatisfy(v -> {
                assertThat(v.get("name").asText()).isEqualTo(volume);
                assertThat(v.at("/secret/items").findValuesAsText("path")).contains(file.substring(directory.length() + 1));
            });
        }
    }

    /**
     * What the JVM measured beside heap, metaspace, code cache, direct buffers and RocksDB (GC 52 MiB, threads 20 MiB,
     * symbols 16 MiB, arenas 13 MiB, CDS 12 MiB, NMT's own 8 MiB and the rest, 125 MiB in all,
     * docs/operations.md#kubernetes), with a margin: the part of the budget no flag caps.
     */
    private static final long UNCAPPED_MIB = 160;

    @Test
    void theMemoryBudgetHeapMetaspaceCodeDirectBuffersAndRocksDbFitsUnderTheLimit() {
        Map<String, String> env = environmentOf("agent-outcomes-0");
        String limit = container().at("/resources/limits/memory").asText();
        assertThat(limit).endsWith("Gi");
        long limitMib = Long.parseLong(limit.substring(0, limit.length() - 2)) * 1024;
        String options = env.get("JAVA_OPTS");
        Map<String, Long> flags = new HashMap<>();
        Matcher flag = Pattern.compile("-XX:(\\w+)=(\\d+)(m?)").matcher(options);
        while (flag.find()) {
            flags.put(flag.group(1), Long.parseLong(flag.group(2)));
        }
        long rocksDbMib = configOf("agent-outcomes-0").rocksDbMemoryBytes() / (1024 * 1024);
        long heapMib = limitMib * flags.get("MaxRAMPercentage") / 100;
        long budget = heapMib + flags.get("MaxMetaspaceSize") + flags.get("ReservedCodeCacheSize")
                + flags.get("MaxDirectMemorySize") + rocksDbMib + UNCAPPED_MIB;

        assertThat(container().at("/resources/requests/memory").asText()).isEqualTo(limit);
        assertThat(rocksDbMib).isEqualTo(64);
        assertThat(heapMib).isEqualTo(1228);
        assertThat(budget).as("the budget in MiB of %s, %s", options, limit).isEqualTo(1836).isLessThan(limitMib);
    }

    /** Prometheus scrapes through the client service only (not twice through the headless one), over HTTPS. */
    @Test
    void theServiceMonitorScrapesTheClientServicesHttpPortOverHttpsTrustingTheCertificate() {
        JsonNode monitor = resources.get("ServiceMonitor/agent-outcomes");
        List<String> selected = new ArrayList<>();
        resources.forEach((name, resource) -> {
            if (resource.get("kind").asText().equals("Service")) {
                Map<String, String> labels = new HashMap<>();
                resource.at("/metadata/labels").fields().forEachRemaining(l -> labels.put(l.getKey(), l.getValue().asText()));
                Map<String, String> wanted = new HashMap<>();
                monitor.at("/spec/selector/matchLabels").fields().forEachRemaining(l -> wanted.put(l.getKey(), l.getValue().asText()));
                if (labels.entrySet().containsAll(wanted.entrySet())) {
                    selected.add(name);
                }
            }
        });
        JsonNode endpoint = monitor.at("/spec/endpoints/0");

        assertThat(selected).containsExactly("Service/agent-outcomes");
        assertThat(endpoint.get("port").asText()).isEqualTo(resources.get("Service/agent-outcomes").at("/spec/ports/0/name").asText());
        assertThat(endpoint.get("path").asText()).isEqualTo("/metrics");
        assertThat(endpoint.get("scheme").asText()).isEqualTo("https");
        assertThat(endpoint.at("/tlsConfig/ca/secret/name").asText()).isEqualTo(statefulSet()
                .at("/spec/template/spec/volumes/0/secret/secretName").asText());
        assertThat(endpoint.at("/tlsConfig/ca/secret/key").asText()).isEqualTo("http.crt");
        assertThat(List.of(Pattern.compile("TLS_HOSTS=(\\S+)").matcher(readOperations()).results().findFirst().orElseThrow()
                .group(1).split(","))).contains(endpoint.at("/tlsConfig/serverName").asText());
    }

    private static String readOperations() {
        try {
            return Files.readString(Path.of("..", "docs", "operations.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** docker/make-tls.sh run with the names docs/operations.md gives: a certificate naming every pod's advertised host. */
    @Test
    void theDocumentedKeystoreNamesEveryPodsAdvertisedHost(@TempDir Path tls) throws Exception {
        Matcher hosts = Pattern.compile("TLS_HOSTS=(\\S+)").matcher(Files.readString(Path.of("..", "docs", "operations.md")));
        assertThat(hosts.find()).as("docs/operations.md gives TLS_HOSTS for Kubernetes").isTrue();
        String password = SECRETS.get("agent-outcomes-http/keystore-password");
        ProcessBuilder script = new ProcessBuilder(DockerFiles.DOCKER.resolve("make-tls.sh").toAbsolutePath().toString())
                .redirectErrorStream(true);
        script.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
                + script.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        script.environment().put("TLS_DIR", tls.toString());
        script.environment().put("TLS_HOSTS", hosts.group(1));
        script.environment().put("AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD", password);
        Process process = script.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        KeyStore keystore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.resolve("http.p12"))) {
            keystore.load(in, password.toCharArray());
        }
        List<String> names = new ArrayList<>();
        ((X509Certificate) keystore.getCertificate("agent-outcomes")).getSubjectAlternativeNames()
                .forEach(name -> names.add(String.valueOf(name.get(1))));
        for (String pod : pods()) {
            assertThat(names).contains(configOf(pod).httpAdvertisedHost());
        }
    }
}

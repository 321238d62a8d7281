package io.agentoutcomes.app.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The controls of the restricted Pod Security Standard, which includes the baseline's, as
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/ lists them, each a named check of a pod's spec.
 * The project's own reading of that list: no checker of the standard resolves here (Kubernetes' own is the Go library
 * k8s.io/pod-security-admission, and no npm or Maven package implements it), so this is what the tests run.
 */
final class RestrictedPodSecurity {
    /** One control refused: its name as the standard's table gives it, and the field and value that break it. */
    record Refusal(String control, String detail) {
        @Override
        public String toString() {
            return control + ": " + detail;
        }
    }

    private static final Set<String> BASELINE_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER",
            "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");
    private static final Set<String> SELINUX_TYPES = Set.of("", "container_t", "container_init_t", "container_kvm_t",
            "container_engine_t");
    private static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    private static final Set<String> VOLUME_TYPES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");
    private static final Set<String> SECCOMP_CONFINED = Set.of("RuntimeDefault", "Localhost");

    private RestrictedPodSecurity() {
    }

    /** Every control the pod (its metadata and spec, as a pod template has them) breaks; empty when admitted. */
    static List<Refusal> check(JsonNode podMetadata, JsonNode podSpec) {
        List<Refusal> refusals = new ArrayList<>();
        BiConsumer<String, String> refuse = (control, detail) -> refusals.add(new Refusal(control, detail));
        JsonNode pod = podSpec.path("securityContext");
        List<JsonNode> containers = containers(podSpec);

        // baseline
        if (pod.path("windowsOptions").path("hostProcess").asBoolean(false)) {
            refuse.accept("HostProcess", "spec.securityContext.windowsOptions.hostProcess=true");
        }
        for (String namespace : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (podSpec.path(namespace).asBoolean(false)) {
                refuse.accept("Host Namespaces", "spec." + namespace + "=true");
            }
        }
        for (JsonNode volume : podSpec.path("volumes")) {
            if (volume.has("hostPath")) {
                refuse.accept("HostPath Volumes", "volume " + volume.path("name").asText() + " is a hostPath");
            }
        }
        seLinux(refuse, "spec.securityContext", pod.path("seLinuxOptions"));
        appArmor(refuse, "spec.securityContext", pod.path("appArmorProfile"));
        podMetadata.path("annotations").fields().forEachRemaining(annotation -> {
            if (annotation.getKey().startsWith("container.apparmor.security.beta.kubernetes.io/")
                    && !annotation.getValue().asText().equals("runtime/default")
                    && !annotation.getValue().asText().startsWith("localhost/")) {
                refuse.accept("AppArmor", annotation.getKey() + "=" + annotation.getValue().asText());
            }
        });
        for (JsonNode sysctl : pod.path("sysctls")) {
            if (!SAFE_SYSCTLS.contains(sysctl.path("name").asText())) {
                refuse.accept("Sysctls", "spec.securityContext.sysctls " + sysctl.path("name").asText());
            }
        }
        // restricted
        for (JsonNode volume : podSpec.path("volumes")) {
            Iterator<String> fields = volume.fieldNames();
            while (fields.hasNext()) {
                String field = fields.next();
                if (!field.equals("name") && !VOLUME_TYPES.contains(field)) {
                    refuse.accept("Volume Types", "volume " + volume.path("name").asText() + " is a " + field);
                }
            }
        }
        boolean podNonRoot = pod.path("runAsNonRoot").asBoolean(false);
        if (pod.path("runAsNonRoot").isBoolean() && !podNonRoot) {
            refuse.accept("Running as Non-root", "spec.securityContext.runAsNonRoot=false");
        }
        if (pod.has("runAsUser") && pod.path("runAsUser").asLong() == 0) {
            refuse.accept("Running as Non-root user", "spec.securityContext.runAsUser=0");
        }
        String podSeccomp = pod.path("seccompProfile").path("type").asText("");
        if (podSeccomp.equals("Unconfined")) {
            refuse.accept("Seccomp", "spec.securityContext.seccompProfile.type=Unconfined");
        }

        for (JsonNode container : containers) {
            String at = "container " + container.path("name").asText();
            JsonNode context = container.path("securityContext");
            if (context.path("windowsOptions").path("hostProcess").asBoolean(false)) {
                refuse.accept("HostProcess", at + " windowsOptions.hostProcess=true");
            }
            if (context.path("privileged").asBoolean(false)) {
                refuse.accept("Privileged Containers", at + " privileged=true");
            }
            for (JsonNode port : container.path("ports")) {
                if (port.path("hostPort").asInt(0) != 0) {
                    refuse.accept("Host Ports", at + " hostPort=" + port.path("hostPort").asInt());
                }
            }
            seLinux(refuse, at, context.path("seLinuxOptions"));
            appArmor(refuse, at, context.path("appArmorProfile"));
            if (!context.path("procMount").asText("Default").equals("Default")) {
                refuse.accept("/proc Mount Type", at + " procMount=" + context.path("procMount").asText());
            }
            if (!context.path("allowPrivilegeEscalation").isBoolean() || context.path("allowPrivilegeEscalation").asBoolean()) {
                refuse.accept("Privilege Escalation", at + " allowPrivilegeEscalation is "
                        + context.path("allowPrivilegeEscalation").asText("unset") + ", must be false");
            }
            JsonNode nonRoot = context.path("runAsNonRoot");
            if (nonRoot.isBoolean() ? !nonRoot.asBoolean() : !podNonRoot) {
                refuse.accept("Running as Non-root", at + " runAsNonRoot is " + nonRoot.asText("unset")
                        + " and the pod's " + pod.path("runAsNonRoot").asText("unset") + ", must be true");
            }
            if (context.has("runAsUser") && context.path("runAsUser").asLong() == 0) {
                refuse.accept("Running as Non-root user", at + " runAsUser=0");
            }
            String seccomp = context.path("seccompProfile").path("type").asText("");
            if (seccomp.isEmpty() ? !SECCOMP_CONFINED.contains(podSeccomp) : !SECCOMP_CONFINED.contains(seccomp)) {
                refuse.accept("Seccomp", at + " seccompProfile.type is " + (seccomp.isEmpty() ? "unset" : seccomp)
                        + " and the pod's " + (podSeccomp.isEmpty() ? "unset" : podSeccomp) + ", must be RuntimeDefault or Localhost");
            }
            List<String> drop = new ArrayList<>();
            context.path("capabilities").path("drop").forEach(capability -> drop.add(capability.asText()));
            if (!drop.contains("ALL")) {
                refuse.accept("Capabilities", at + " capabilities.drop is " + drop + ", must include ALL");
            }
            for (JsonNode added : context.path("capabilities").path("add")) {
                if (!added.asText().equals("NET_BIND_SERVICE")) {
                    refuse.accept("Capabilities", at + " adds " + added.asText()
                            + (BASELINE_CAPABILITIES.contains(added.asText()) ? " (baseline allows it)" : "")
                            + ", only NET_BIND_SERVICE may be added");
                }
            }
        }
        return refusals;
    }

    private static void seLinux(BiConsumer<String, String> refuse, String at, JsonNode options) {
        if (!SELINUX_TYPES.contains(options.path("type").asText(""))) {
            refuse.accept("SELinux", at + " seLinuxOptions.type=" + options.path("type").asText());
        }
        for (String field : List.of("user", "role")) {
            if (!options.path(field).asText("").isEmpty()) {
                refuse.accept("SELinux", at + " seLinuxOptions." + field + "=" + options.path(field).asText());
            }
        }
    }

    private static void appArmor(BiConsumer<String, String> refuse, String at, JsonNode profile) {
        String type = profile.path("type").asText("RuntimeDefault");
        if (!type.equals("RuntimeDefault") && !type.equals("Localhost")) {
            refuse.accept("AppArmor", at + " appArmorProfile.type=" + type);
        }
    }

    private static List<JsonNode> containers(JsonNode podSpec) {
        List<JsonNode> containers = new ArrayList<>();
        for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
            podSpec.path(list).forEach(containers::add);
        }
        return containers;
    }
}

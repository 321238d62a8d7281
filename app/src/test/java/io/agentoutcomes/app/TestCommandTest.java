package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command works on a fresh Debian machine: it is {@code ./test.sh}, which installs what the tests need
 * and is missing (what only {@code .ci/run} used to install) before running them, and {@code .ci/run} is that same
 * command. The script is run here with {@code --dry-run}, on a PATH without Node.js, npm, curl, promtool or Java and with the
 * browser paths pointed at nothing, as on a fresh machine.
 */
class TestCommandTest {
    private static final Path ROOT = Path.of("..");

    @TempDir
    Path bin;

    /** The command of the README's "Run the tests" block. */
    private static String readmeTestCommand() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Matcher block = Pattern.compile("Run the tests[^`]*```sh\\n([^`]*)```").matcher(readme);
        assertThat(block.find()).as("README.md has a \"Run the tests\" command block").isTrue();
        return block.group(1).strip();
    }

    private static String dryRun(Map<String, String> environment) throws Exception {
        ProcessBuilder script = new ProcessBuilder("/bin/bash", ROOT.resolve("test.sh").toString(), "--dry-run")
                .redirectErrorStream(true);
        script.environment().putAll(environment);
        Process process = script.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void theReadmesTestCommandIsTheScriptThatSetsTheMachineUpAndCiRunsTheSameCommand() throws Exception {
        String command = readmeTestCommand();
        List<String> ciCommands = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve(".ci/run"))) {
            if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("set ")) {
                ciCommands.add(line.strip());
            }
        }

        assertThat(command).isEqualTo("./test.sh");
        assertThat(Files.isExecutable(ROOT.resolve("test.sh"))).isTrue();
        assertThat(ciCommands).containsExactly("exec \"$(dirname \"$0\")/../test.sh\" \"$@\"");
    }

    /** A PATH of only what the script itself needs (and, for a user who is not root, sudo), nothing the tests need. */
    private void freshMachinePath() throws Exception {
        for (String tool : List.of("bash", "dirname", "id", "env")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool).toRealPath());
        }
        if (!isRoot()) {
            executable("sudo");
        }
    }

    /** An executable that is only there to be found (the script's dry run calls none of them). */
    private Path executable(String name) throws IOException {
        return Files.createFile(bin.resolve(name), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    }

    @Test
    void onAFreshMachineItInstallsNodeNpmChromiumItsDriverCurlPromtoolAndJavaThenRunsVerifyAndTheQuickBenchmark() throws Exception {
        freshMachinePath();

        String output = dryRun(Map.of("PATH", bin.toString(), "CHROMIUM_BIN", bin.resolve("chromium").toString(),
                "CHROMEDRIVER_BIN", bin.resolve("chromedriver").toString()));

        List<String> commands = output.lines().filter(line -> line.startsWith("+ ")).toList();
        String sudo = isRoot() ? "" : "sudo ";
        assertThat(commands).containsExactly(
                "+ " + sudo + "apt-get update -qq",
                "+ " + sudo + "env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jdk-headless nodejs npm "
                        + "chromium chromium-driver curl prometheus",
                "+ rm -f app/target/fault-figures.txt",
                "+ ./mvnw -B verify -Dpromtool.required=true",
                "+ java -jar bench/target/agent-outcomes-bench.jar all --quick");
    }

    @Test
    void withEverythingInstalledItInstallsNothing() throws Exception {
        freshMachinePath();
        for (String tool : List.of("java", "node", "npm", "curl", "promtool")) {
            executable(tool);
        }

        String output = dryRun(Map.of("PATH", bin.toString(), "CHROMIUM_BIN", executable("chromium").toString(),
                "CHROMEDRIVER_BIN", executable("chromedriver").toString()));

        assertThat(output).doesNotContain("apt-get").contains("+ ./mvnw -B verify -Dpromtool.required=true");
    }

    private static boolean isRoot() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        return new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().equals("0");
    }
}

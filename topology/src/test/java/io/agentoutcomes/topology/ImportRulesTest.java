package io.agentoutcomes.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.puppycrawl.tools.checkstyle.Checker;
import com.puppycrawl.tools.checkstyle.ConfigurationLoader;
import com.puppycrawl.tools.checkstyle.PropertiesExpander;
import com.puppycrawl.tools.checkstyle.api.AuditEvent;
import com.puppycrawl.tools.checkstyle.api.AuditListener;
import com.puppycrawl.tools.checkstyle.api.CheckstyleException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's import rules (build/checkstyle.xml with build/import-control.xml, as every module's validate phase runs
 * them) fail on a source that breaks them: an import up the packages' floors, across one floor, from a module above,
 * into a subpackage above its parent, and imports out of order. Sources that keep them pass, so the rules are not
 * simply refusing everything.
 */
class ImportRulesTest {
    private static final Path BUILD = Path.of("..", "build").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void aGroundFloorPackageImportingAStageFails() {
        assertThat(check("topology.state", "import io.agentoutcomes.topology.classify.ClassifyTopology;"))
                .containsExactly("ImportControl: Disallowed import - io.agentoutcomes.topology.classify.ClassifyTopology.");
    }

    @Test
    void aStageImportingAStageOnItsOwnFloorFails() {
        assertThat(check("topology.classify", "import io.agentoutcomes.topology.schedule.RetryScheduler;"))
                .containsExactly("ImportControl: Disallowed import - io.agentoutcomes.topology.schedule.RetryScheduler.");
    }

    @Test
    void aStageImportingTheRootPackageAboveItFails() {
        assertThat(check("topology.ingest", "import io.agentoutcomes.topology.PipelineSettings;"))
                .containsExactly("ImportControl: Disallowed import - io.agentoutcomes.topology.PipelineSettings.");
    }

    @Test
    void theTopologyImportingTheAppFails() {
        assertThat(check("topology", "import io.agentoutcomes.app.cli.ConfigOptions;"))
                .containsExactly("ImportControl: Disallowed import - io.agentoutcomes.app.cli.ConfigOptions.");
    }

    @Test
    void aPackageImportingItsOwnSubpackageOnAHigherFloorFails() {
        assertThat(check("app.http", "import io.agentoutcomes.app.http.query.QueryRoutes;"))
                .containsExactly("ImportControl: Disallowed import - io.agentoutcomes.app.http.query.QueryRoutes.");
    }

    @Test
    void importsDownTheFloorsAndAcrossModulesBelowPass() {
        assertThat(check("topology.intake", "import static io.agentoutcomes.topology.classify.ClassifyTopology.AGENT_TASKS_STORE;",
                "",
                "import io.agentoutcomes.avro.AgentResult;",
                "import io.agentoutcomes.topology.classify.ClassifyTopology.Classified;",
                "import io.agentoutcomes.topology.topic.Topics;",
                "import java.util.List;")).isEmpty();
        assertThat(check("app.http.pages", "import io.agentoutcomes.app.http.HttpApiServer;",
                "import io.agentoutcomes.app.http.query.QueryRoutes;",
                "import io.agentoutcomes.topology.budget.BudgetSettings;")).isEmpty();
    }

    @Test
    void importsOutOfAsciiOrderFail() {
        assertThat(check("topology.classify", "import java.util.Map;", "import java.util.List;"))
                .containsExactly("ImportOrder: Wrong order for 'java.util.List' import.");
        assertThat(check("topology.classify", "import org.apache.kafka.streams.kstream.KStream;",
                "import org.apache.kafka.streams.Topology;"))
                .containsExactly("ImportOrder: Wrong order for 'org.apache.kafka.streams.Topology' import.");
    }

    @Test
    void aStaticImportAfterTheOthersFails() {
        assertThat(check("topology.classify", "import java.util.List;", "", "import static java.util.Objects.requireNonNull;"))
                .containsExactly("ImportOrder: Wrong order for 'java.util.Objects.requireNonNull' import.");
    }

    @Test
    void theProjectsOwnFilesPass() throws IOException {
        Path main = Path.of("src", "main", "java", "io", "agentoutcomes", "topology");
        assertThat(run(List.of(main.resolve("AgentOutcomesTopology.java").toFile(),
                main.resolve("intake").resolve("Intake.java").toFile(),
                main.resolve("classify").resolve("ClassifyTopology.java").toFile()))).isEmpty();
    }

    /**
     * The violations, as {@code Check: message}, of a class {@code Probe} in {@code io.agentoutcomes.<pkg>} with these
     * import lines, each import used.
     */
    private List<String> check(String pkg, String... imports) {
        StringBuilder source = new StringBuilder("package io.agentoutcomes." + pkg + ";\n\n");
        StringBuilder uses = new StringBuilder();
        for (String line : imports) {
            source.append(line).append('\n');
            if (!line.isEmpty()) {
                String name = line.substring(line.lastIndexOf('.') + 1, line.length() - 1);
                uses.append("    Object ").append(name.toLowerCase(Locale.ROOT)).append(" = ").append(name)
                        .append(line.startsWith("import static") ? "" : ".class").append(";\n");
            }
        }
        source.append("\npublic class Probe {\n").append(uses).append("}\n");
        try {
            // a path like a main source's: the rules leave tests out of the import control
            Path file = dir.resolve("src/main/java/io/agentoutcomes/" + pkg.replace('.', '/') + "/Probe.java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source, StandardCharsets.UTF_8);
            return run(List.of(file.toFile()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> run(List<File> files) {
        Properties properties = new Properties();
        properties.setProperty("import.control.file", BUILD.resolve("import-control.xml").toString());
        List<String> violations = new ArrayList<>();
        Checker checker = new Checker();
        try {
            checker.setModuleClassLoader(Checker.class.getClassLoader());
            checker.setLocaleLanguage("en");
            checker.setLocaleCountry("");
            checker.configure(ConfigurationLoader.loadConfiguration(BUILD.resolve("checkstyle.xml").toString(),
                    new PropertiesExpander(properties)));
            checker.addListener(new Violations(violations));
            checker.process(files);
        } catch (CheckstyleException e) {
            throw new IllegalStateException(e);
        } finally {
            checker.destroy();
        }
        return violations;
    }

    private record Violations(List<String> found) implements AuditListener {
        @Override
        public void addError(AuditEvent event) {
            String check = event.getSourceName().substring(event.getSourceName().lastIndexOf('.') + 1);
            found.add(check.replace("Check", "") + ": " + event.getMessage());
        }

        @Override
        public void addException(AuditEvent event, Throwable throwable) {
            throw new IllegalStateException(event.getFileName(), throwable);
        }

        @Override
        public void auditStarted(AuditEvent event) {
        }

        @Override
        public void auditFinished(AuditEvent event) {
        }

        @Override
        public void fileStarted(AuditEvent event) {
        }

        @Override
        public void fileFinished(AuditEvent event) {
        }
    }
}

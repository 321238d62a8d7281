package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.cli.ConfigOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SettingsTableTest {
    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");

    @Test
    void theCommittedSettingsTableIsTheOneGeneratedFromTheConfigDef() throws IOException {
        if (Boolean.getBoolean("settings.table.write")) {
            Files.writeString(OPERATIONS, SettingsTable.replaceIn(Files.readString(OPERATIONS), ConfigOptions.FLAGS));
        }
        String committed = Files.readString(OPERATIONS);

        assertThat(table(committed)).as("docs/operations.md's settings table drifted from AgentOutcomesConfig: rewrite it with "
                + "./mvnw -B -pl app -am test -Dtest=SettingsTableTest -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.table.write=true")
                .isEqualTo(table(SettingsTable.replaceIn(committed, ConfigOptions.FLAGS)));
    }

    private static String table(String document) {
        return document.substring(document.indexOf(SettingsTable.BEGIN), document.indexOf(SettingsTable.END));
    }

    @Test
    void everyDeclaredSettingAndFamilyHasARow() {
        String table = SettingsTable.markdown(ConfigOptions.FLAGS);

        AgentOutcomesConfig.CONFIG.names().forEach(name -> assertThat(table).contains("| `" + name + "` | `"
                + EnvironmentVariables.variable(name) + "` |"));
        assertThat(table).contains("| `policy.code.<code>` | e.g. `AGENT_OUTCOMES_POLICY_CODE_LLM__RATE__LIMIT` | `-p` | string |",
                        "| `backoff.base.<code>.ms` | e.g. `AGENT_OUTCOMES_BACKOFF_BASE_LLM__TIMEOUT_MS` | `-p` | long |")
                .contains("| `basic.auth.user.info` | `AGENT_OUTCOMES_BASIC_AUTH_USER_INFO` | `-p` | password | not set |")
                .contains("| `http.port` | `AGENT_OUTCOMES_HTTP_PORT` | `--http-port` | int | `8080` | 0..65535 |")
                .contains("| `policy.daily-limit` | `AGENT_OUTCOMES_POLICY_DAILY__LIMIT` | `-p` | string | `switch` | switch, wait |");
    }
}

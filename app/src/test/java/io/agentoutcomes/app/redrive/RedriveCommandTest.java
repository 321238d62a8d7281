package io.agentoutcomes.app.redrive;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line's side of a redrive: bad filters refused before any Kafka client starts. */
class RedriveCommandTest {
    private static int run(StringWriter err, String... args) {
        CommandLine line = Main.commandLine().setErr(new PrintWriter(err));
        return line.execute(args);
    }

    @Test
    void aBadStopReasonIsRefusedWithTheReasonsThereAreAndExitStatus1() {
        StringWriter err = new StringWriter();

        assertThat(run(err, "redrive", "--stop-reason", "tired", "--bootstrap-servers", "nowhere:1")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("agent-outcomes: stop reason 'tired' is not one of [COMPLETED, STEPS_LIMIT, "
                + "TOKEN_LIMIT, TIME_LIMIT, RETRY_LIMIT, ERROR, FINISH_REASON, GUARD, USER_REQUESTED, BUDGET_EXCEEDED, RETRY_BUDGET_EXHAUSTED]" + System.lineSeparator());
    }

    @Test
    void helpNamesEveryStopReasonADeadLetterCarriesBudgetExceededAndRetryBudgetExhaustedIncluded() {
        StringWriter out = new StringWriter();
        CommandLine line = Main.commandLine().setOut(new PrintWriter(out));

        assertThat(line.execute("redrive", "--help")).isZero();
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("--stop-reason=REASON Only this stop reason (any case): retry_limit, error, budget_exceeded, retry_budget_exhausted.");
    }

    @Test
    void aTimeRangeThatEndsBeforeItStartsIsRefused() {
        StringWriter err = new StringWriter();

        assertThat(run(err, "redrive", "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-01T00:00:00Z")).isEqualTo(1);
        assertThat(err.toString()).contains("from (2026-03-02T00:00:00Z) must be before to (2026-03-01T00:00:00Z)");
    }

    @Test
    void aLimitPastTheMostIsRefused() {
        StringWriter err = new StringWriter();

        assertThat(run(err, "redrive", "--limit", "10001", "--bootstrap-servers", "nowhere:1")).isEqualTo(1);
        assertThat(err.toString()).contains("limit must be 1..10000, was 10001");
    }
}

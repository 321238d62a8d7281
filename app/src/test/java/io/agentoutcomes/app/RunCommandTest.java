package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** What {@code run} prints about its HTTP API names the pages the README sends a new user to. */
class RunCommandTest {

    @Test
    void runPrintsTheDashboardMetricsJobsAndHealthUrls() {
        StringWriter text = new StringWriter();

        RunCommand.printHttp(new PrintWriter(text, true), "http://127.0.0.1:8080");

        assertThat(text.toString().lines()).containsExactly(
                "  Dashboard               : http://127.0.0.1:8080/",
                "  Prometheus metrics      : http://127.0.0.1:8080/metrics",
                "  Jobs                    : http://127.0.0.1:8080/ui/jobs",
                "  Health                  : http://127.0.0.1:8080/health");
    }
}

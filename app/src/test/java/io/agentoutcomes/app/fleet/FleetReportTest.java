package io.agentoutcomes.app.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report for people says what its figures cover: the fleet's own span, not everything the service has seen. */
class FleetReportTest {

    @Test
    void theReportSaysItsFiguresAreTheFleetsOwnSpan() {
        FleetReport report = new FleetReport(42, 60, 10, Map.of("agent-results-json", 10L), Map.of("success", 10L), 0,
                Map.of("SUCCESS", 10L), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), Map.of(), Map.of(),
                Map.of("gpt-4o-mini", new BigDecimal("0.0125")), Map.of("gpt-4o-mini", 1200L), Map.of(), Map.of(), null, 0,
                true);
        StringWriter text = new StringWriter();

        report.print(new PrintWriter(text));

        assertThat(text.toString().lines().limit(4)).containsExactly(
                "",
                "Fleet report (seed 42, 60 s)",
                "  the fleet's own span: each topic counted from where it stood when this run began (earlier runs on",
                "  the same broker are not in it; /analytics, /metrics and the dashboard count everything)");
    }
}

package io.agentoutcomes.app.http.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.http.query.AnalyticsQueries;
import io.agentoutcomes.app.http.query.ProviderHistory;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.BudgetPeriodSpend;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RequestBudget;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.replay.ReplayState;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DashboardPageTest {
    private static final ProviderHistory HISTORY = new ProviderHistory(Duration.ofSeconds(10));

    private static AgentMetrics point(String model, Instant start, String cost, long tokens) {
        return AgentMetrics.newBuilder().setAgentId("a").setModel(model).setProvider("p").setWindowStart(start.toEpochMilli())
                .setCostTotal(new BigDecimal(cost).setScale(12)).setCostInput(BigDecimal.ZERO.setScale(12))
                .setCostOutput(BigDecimal.ZERO.setScale(12)).setCostCacheRead(BigDecimal.ZERO.setScale(12))
                .setCostCacheWrite(BigDecimal.ZERO.setScale(12)).setTotalTokens(tokens).setDurationSketch(ByteBuffer.allocate(0))
                .build();
    }

    @Test
    void aBarChartOfManyAgentsDrawsTheThirtyLargestInTheirOrderAndSaysHowManyMore() {
        List<AgentMetrics> agents = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            AgentMetrics agent = point("m", Instant.parse("2026-01-01T10:00:00Z"), "0", i);
            agent.setAgentId(String.format("agent-%03d", i));
            agents.add(agent);
        }

        String svg = DashboardPage.barChart(agents, AgentMetrics::getAgentId, m -> m.getTotalTokens(), Amounts::count);

        Matcher bar = Pattern.compile("<rect class=\"bar\" data-agent=\"([^\"]+)\"").matcher(svg);
        List<String> drawn = new ArrayList<>();
        while (bar.find()) {
            drawn.add(bar.group(1));
        }
        List<String> largest = new ArrayList<>();
        for (int i = 70; i < 100; i++) {
            largest.add(String.format("agent-%03d", i));
        }
        assertThat(drawn).containsExactlyElementsOf(largest);
        assertThat(svg).endsWith("<p class=\"muted\">70 more agents, with smaller values, not drawn.</p>");
    }

    @Test
    void aSinglePointDrawsAVisibleDotInTheMiddle() {
        String svg = DashboardPage.lineChart(List.of(new AnalyticsQueries.Series("gpt-4o-mini",
                List.of(point("gpt-4o-mini", Instant.parse("2026-01-01T10:00:00Z"), "0.0125", 218_946)))),
                m -> m.getTotalTokens(), v -> Amounts.count(v) + " tok");
        assertThat(svg).contains("<circle class=\"point\" cx=\"308.0\"", "218,946 tok",
                "<text class=\"x-label\" x=\"308\" y=\"208\" text-anchor=\"middle\">10:00</text>");
    }

    @Test
    void axisLabelsHaveUnitsAndThousandsSeparators() {
        assertThat(Amounts.count(218946.0)).isEqualTo("218,946");
        assertThat(Amounts.dollars(1234.5)).isEqualTo("$1,234.50");
        assertThat(Amounts.dollars(0.0123456)).isEqualTo("$0.0123");
        assertThat(Amounts.dollars(0)).isEqualTo("$0");
    }

    @Test
    void anEmptyDashboardSaysHowToSendData() {
        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(), List.of(), HISTORY, List.of(),
                BudgetSettings.none());
        assertThat(page).contains("id=\"empty-state\"", "agent-outcomes.jar fleet", "agent-results-json", "agent-outcomes.jar demo");
    }

    @Test
    void theLastTimeLabelIsTheTimeOfThePointAboveIt() {
        String svg = DashboardPage.lineChart(List.of(new AnalyticsQueries.Series("gpt-4o-mini", List.of(
                point("gpt-4o-mini", Instant.parse("2026-01-01T10:00:00Z"), "0.01", 100),
                point("gpt-4o-mini", Instant.parse("2026-01-01T10:05:00Z"), "0.02", 200)))),
                m -> m.getTotalTokens(), v -> Amounts.count(v) + " tok");

        Matcher label = Pattern.compile("class=\"x-label\"[^>]*>([^<]*)<").matcher(svg);
        List<String> labels = new ArrayList<>();
        while (label.find()) {
            labels.add(label.group(1));
        }
        assertThat(labels).containsExactly("10:00", "10:05");
        assertThat(svg).contains("<circle class=\"point\" cx=\"538.0\"");
    }

    @Test
    void theBudgetsCardShowsEachValuesSpendAgainstItsLimitThisPeriod() {
        Budget daily = new Budget("daily", Dimension.AGENT, null, BudgetPeriod.DAY, new BigDecimal("1"), Budget.DEFAULT_THRESHOLDS, true);
        BudgetState a1 = new BudgetState("daily", "a1", new ArrayList<>(List.of(new BudgetPeriodSpend(
                Instant.parse("2026-03-01T00:00:00Z").toEpochMilli(), Instant.parse("2026-03-02T00:00:00Z").toEpochMilli(),
                Money.toBytes(new BigDecimal("0.85")), new ArrayList<>(List.of(50, 80)), false, 9L))));
        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(), List.of(), HISTORY, List.of(a1),
                BudgetSettings.of(List.of(daily), 4));

        assertThat(page).contains("<h2>Budgets: spend this period</h2>").contains("<table id=\"budgets-table\">")
                .contains("<tr><td>daily</td><td>agent a1</td><td>day from 2026-03-01T00:00:00Z</td><td>$0.85</td><td>$1.00</td>"
                        + "<td><span class=\"progress\" title=\"85 % of the limit\"><span style=\"width:85%;background:#ef6c00\">"
                        + "</span></span>85 %</td><td>[50, 80] %</td></tr>");
    }

    @Test
    void reasoningTokensPerModelAreAChartOfTheirOwn() {
        AgentMetrics o3 = AgentMetrics.newBuilder(point("o3-mini", Instant.parse("2026-01-01T10:00:00Z"), "0.00638", 2_200))
                .setOutputTokens(1_200).setReasoningTokens(1_024).build();
        String page = DashboardPage.render(List.of(new AnalyticsQueries.Series("o3-mini", List.of(o3))), List.of(), List.of(), List.of(), List.of(), HISTORY, List.of(),
                BudgetSettings.none());

        Matcher chart = Pattern.compile("id=\"reasoning-chart\"><h2>([^<]*)</h2>(.*?)</div></div>").matcher(page);
        assertThat(chart.find()).isTrue();
        assertThat(chart.group(1)).isEqualTo("Reasoning tokens per model, per minute");
        assertThat(chart.group(2)).contains("<title>o3-mini 10:00: 1,024 tok</title>");
    }

    @Test
    void anEmptyDashboardSaysHowToSendDataOnceNotInEveryCard() {
        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(), List.of(), HISTORY, List.of(),
                BudgetSettings.none());

        assertThat(page.split("agent-results-json", -1)).hasSize(2);
        assertThat(page).doesNotContain("id=\"cost-chart\"", "No data yet.");
    }

    private static List<String> all(String regex, String text) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        List<String> found = new ArrayList<>();
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    /** Issue 32: a minute without a window is a gap in the line, not a line drawn through it. */
    @Test
    void aLineBreaksWhereAMinuteHasNoWindow() {
        Instant ten = Instant.parse("2026-01-01T10:00:00Z");
        String svg = LineChart.render(List.of(new AnalyticsQueries.Series("m", List.of(point("m", ten, "0.01", 100),
                point("m", ten.plusSeconds(60), "0.01", 200), point("m", ten.plusSeconds(300), "0.01", 300)))),
                m -> m.getTotalTokens(), v -> Amounts.count(v) + " tok", ten.plusSeconds(3_600).toEpochMilli());

        assertThat(all("<polyline class=\"series\" data-series=\"m\"[^>]* points=\"([^\"]*)\"", svg))
                .containsExactly("78.0,123.3 170.0,66.7", "538.0,10.0");
        assertThat(svg).doesNotContain("open-window");
    }

    /** Issue 32: the window still open is marked, its dot hollow: its figures still grow. */
    @Test
    void theOpenWindowIsMarked() {
        Instant ten = Instant.parse("2026-01-01T10:00:00Z");
        String svg = LineChart.render(List.of(new AnalyticsQueries.Series("m", List.of(point("m", ten, "0.01", 100),
                point("m", ten.plusSeconds(60), "0.01", 200)))), m -> m.getTotalTokens(),
                v -> Amounts.count(v) + " tok", ten.plusSeconds(90).toEpochMilli());

        assertThat(svg).contains("<rect class=\"open-window\"", ">open</text>",
                "<circle class=\"point open\" cx=\"538.0\"", "<title>m 10:01: 200 tok (open)</title>");
        assertThat(all("<circle class=\"(point[^\"]*)\"", svg)).containsExactly("point", "point open");
    }

    /** Issue 32: the y axis on round steps, each label once. */
    @Test
    void theYAxisHasRoundTicksAndNoLabelTwice() {
        assertThat(LineChart.ticks(218_946)).containsExactly(0.0, 100_000.0, 200_000.0, 300_000.0);
        assertThat(LineChart.ticks(0.0123)).containsExactly(0.0, 0.005, 0.01, 0.015);
        assertThat(LineChart.ticks(3)).containsExactly(0.0, 1.0, 2.0, 3.0);
        assertThat(LineChart.ticks(0)).containsExactly(0.0, 1.0);
        String svg = LineChart.render(List.of(new AnalyticsQueries.Series("m", List.of(point("m",
                Instant.parse("2026-01-01T10:00:00Z"), "0.01", 1)))), m -> m.getTotalTokens(),
                v -> Amounts.count(v) + " tok", Instant.parse("2026-01-02T00:00:00Z").toEpochMilli());
        assertThat(all("class=\"y-label\"[^>]*>([^<]*)<", svg)).containsExactly("0 tok", "1 tok");
    }

    /** Issue 32: each model's total over the windows drawn, as bars, the most expensive first. */
    @Test
    void totalsByModelAreBars() {
        Instant ten = Instant.parse("2026-01-01T10:00:00Z");
        String page = DashboardPage.render(List.of(
                new AnalyticsQueries.Series("cheap", List.of(point("cheap", ten, "0.01", 100), point("cheap", ten.plusSeconds(60), "0.02", 100))),
                new AnalyticsQueries.Series("dear", List.of(point("dear", ten, "0.50", 10)))),
                List.of(), List.of(), List.of(), List.of(), HISTORY, List.of(), BudgetSettings.none());

        Matcher card = Pattern.compile("id=\"model-totals\"><h2>([^<]*)</h2>(.*?)</div>").matcher(page);
        assertThat(card.find()).isTrue();
        assertThat(all("<rect class=\"bar\" data-agent=\"([^\"]+)\"", card.group(2))).containsExactly("dear", "cheap");
        assertThat(all("<text class=\"value\"[^>]*>([^<]*)<", card.group(2))).containsExactly("$0.5", "$0.03");
        assertThat(page).contains("<nav class=\"pages\"><a href=\"/\">Dashboard</a><a href=\"/ui/jobs\">Jobs</a>");
    }

    private static ProviderState scope(long held, long paced) {
        return ProviderState.newBuilder().setProvider("openai").setModel("gpt-4o").setHeld(held).setPaced(paced)
                .setBudgets(List.of(RequestBudget.newBuilder().setWindow("requests").setLimit(500L).setLengthMs(60_000)
                        .setTokens(0).setUpdatedAt(0).setAdvertisedAt(0).build())).build();
    }

    /** Issue 32: the retries a scope held and paced over its last samples, as a sparkline, not a bucket's count. */
    @Test
    void theProviderCardDrawsHeldAndPacedRetriesAsASparkline() {
        ProviderHistory history = new ProviderHistory(Duration.ofSeconds(10));
        long t0 = Instant.parse("2026-01-01T10:00:00Z").toEpochMilli();
        history.record(t0, List.of(scope(0, 100)));
        history.record(t0 + 10_000, List.of(scope(2, 103)));
        history.record(t0 + 20_000, List.of(scope(5, 107)));
        history.record(t0 + 30_000, List.of(scope(3, 107)));

        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(), List.of(scope(3, 107)), history,
                List.of(), BudgetSettings.none());

        // the oldest sample at the left edge, the latest at the right; one scale from 0 to the largest value drawn (5)
        assertThat(page).contains("<svg class=\"sparkline\" data-scope=\"openai / gpt-4o\" data-held=\"0,2,5,3\" "
                + "data-paced=\"-,3,4,0\" data-paced-before=\"100\"");
        assertThat(all("<polyline class=\"held\"[^>]* points=\"([^\"]*)\"", page))
                .containsExactly("0.0,30.0 50.0,18.8 100.0,2.0 150.0,13.2");
        assertThat(all("<polyline class=\"paced\"[^>]* points=\"([^\"]*)\"", page))
                .containsExactly("50.0,13.2 100.0,7.6 150.0,30.0");
        assertThat(page).contains("<span class=\"held-now\">3</span> held now · 7 paced in 30 s, "
                + "<span class=\"paced-all\">107</span> in all", "requests: 500 per 60 s, retries paced to it",
                "a sample every 10 s, the last 60");
        assertThat(page).doesNotContain("0 of 500");
    }

    /** Issue 33: the retry budget's column says whether the budget alone holds the scope's retries, and what it stopped. */
    @Test
    void theProviderCardSaysWhetherTheRetryBudgetIsSpent() {
        ProviderState within = scope(0, 0);
        ProviderState spent = ProviderState.newBuilder(scope(4, 9)).setModel("gpt-4o-mini")
                .setBudgetExhaustedSince(Instant.parse("2026-01-01T10:00:05Z").toEpochMilli()).setBudgetStopped(3).build();

        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(), List.of(within, spent),
                new ProviderHistory(Duration.ofSeconds(10)), List.of(), BudgetSettings.none());

        assertThat(all("<td class=\"retry-budget\">(.*?)</td>", page)).containsExactly("within",
                "<span class=\"exhausted\">spent since 2026-01-01T10:00:05Z</span>, 3 stopped");
    }

    /**
     * Issue 33: the fallbacks column counts the retries moved from a scope to each fallback and to it from each scope,
     * with why: the one count the fallback's scope keeps, shown on both rows.
     */
    @Test
    void theProviderCardCountsRetriesMovedToAFallbackOnBothScopes() {
        ProviderState sick = ProviderState.newBuilder(scope(0, 0)).setProvider("flaky").setModel("m1").build();
        ProviderState backup = ProviderState.newBuilder(scope(0, 0)).setProvider("backup").setModel("m2")
                .setFallbacksReceived(List.of(new FallbackCount("flaky", "m1", FallbackCause.CIRCUIT_OPEN, 1_200L),
                        new FallbackCount("flaky", "m1", FallbackCause.DAILY_LIMIT, 3L)))
                .build();
        ProviderState quiet = scope(0, 0);

        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(), List.of(backup, sick, quiet),
                new ProviderHistory(Duration.ofSeconds(10)), List.of(), BudgetSettings.none());

        assertThat(all("<td class=\"fallbacks\">(.*?)</td>", page)).containsExactly(
                "1,200 taken from flaky/m1, circuit open<br>3 taken from flaky/m1, daily limit",
                "1,200 moved to backup/m2, circuit open<br>3 moved to backup/m2, daily limit",
                "—");
    }

    /** Issue 32: a missing sample is a gap in the sparkline, a run of one sample a dot. */
    @Test
    void aSparklineBreaksWhereASampleIsMissing() {
        ProviderHistory history = new ProviderHistory(Duration.ofSeconds(10));
        long t0 = Instant.parse("2026-01-01T10:00:00Z").toEpochMilli();
        history.record(t0 - 10_000, List.of());
        history.record(t0, List.of(scope(1, 2)));
        history.record(t0 + 10_000, List.of(scope(1, 2)));
        history.record(t0 + 40_000, List.of(scope(1, 2)));

        String svg = ProviderSparkline.svg("openai / gpt-4o", history.samples("openai", "gpt-4o"), 10_000);

        assertThat(all("<polyline class=\"held\"[^>]* points=\"([^\"]*)\"", svg)).containsExactly("0.0,16.0 37.5,16.0");
        assertThat(all("<polyline class=\"paced\"[^>]* points=\"([^\"]*)\"", svg)).containsExactly("0.0,2.0 37.5,30.0");
        assertThat(all("<circle class=\"(held|paced)\" cx=\"150.0\"", svg)).containsExactly("held", "paced");
        assertThat(svg).contains("data-paced=\"2,0,0\" data-paced-before=\"0\"");
        assertThat(ProviderSparkline.pacedText(history.samples("openai", "gpt-4o"), 10_000)).isEqualTo("2 paced in 50 s");
    }

    @Test
    void aScopeWithoutASampleYetSaysSo() {
        String card = ProviderPanel.html(List.of(scope(0, 0)), new ProviderHistory(Duration.ofSeconds(10)), 0);

        assertThat(card).contains("no sample yet", "<span class=\"held-now\">0</span> held now · <span class=\"paced-all\">0");
    }

    /** Issue 32: the dashboard links each recent job to its timeline as the jobs list does, its id one path segment. */
    @Test
    void aRecentJobLinksToItsTimelineAsTheJobsListDoes() {
        JobReplayState job = ReplayState.apply(ReplayState.empty("nightly run/7"), NodeFinished.newBuilder()
                .setJobId("nightly run/7").setNodeId("n1").setAttempt(0).setResultType(StepResultType.SUCCESS).build(),
                Instant.parse("2026-01-01T10:00:00Z"), null);

        String page = DashboardPage.render(List.of(), List.of(), List.of(), List.of(job), List.of(), HISTORY, List.of(),
                BudgetSettings.none());

        assertThat(page).contains("<a href=\"/ui/jobs/nightly%20run%2F7\">nightly run/7</a>",
                "</table><p><a href=\"/ui/jobs\">All jobs</a></p></div>");
        assertThat(TimelinePage.jobs(List.of(job))).contains("<a href=\"/ui/jobs/nightly%20run%2F7\">nightly run/7</a>");
    }

    /**
     * Issue 32: a count whose round step would be a fraction (at most 2 tokens: steps of 0.5) takes the next step whose
     * labels differ, each label at its own value; not "1 tok" written at 0.5 and "2 tok" at 1.5.
     */
    @Test
    void aSmallCountIsLabelledAtWholeSteps() {
        String svg = LineChart.render(List.of(new AnalyticsQueries.Series("m", List.of(point("m",
                Instant.parse("2026-01-01T10:00:00Z"), "0.01", 2)))), m -> m.getTotalTokens(),
                v -> Amounts.count(v) + " tok", Instant.parse("2026-01-02T00:00:00Z").toEpochMilli());

        assertThat(all("(<text class=\"y-label\"[^>]*>[^<]*)<", svg)).containsExactly(
                "<text class=\"y-label\" x=\"72\" y=\"184.0\" text-anchor=\"end\">0 tok",
                "<text class=\"y-label\" x=\"72\" y=\"99.0\" text-anchor=\"end\">1 tok",
                "<text class=\"y-label\" x=\"72\" y=\"14.0\" text-anchor=\"end\">2 tok");
    }
}

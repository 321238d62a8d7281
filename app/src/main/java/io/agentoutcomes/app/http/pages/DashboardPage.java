package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.app.http.query.AnalyticsQueries.Series;
import io.agentoutcomes.app.http.query.ProviderHistory;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.topology.budget.BudgetSettings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The dashboard at {@code GET /}: cost, tokens and reasoning tokens over time per model (1-minute windows), retry
 * rate and dead letters per agent, the slowest and most expensive agents and the cost per tenant (running totals), and
 * links to the job timelines. Drawn as inline
 * SVG from the analytics API's data; no script, no CDN.
 */
public final class DashboardPage {
    private static final String[] PALETTE = {"#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037"};
    /** How to send data, said once, on a dashboard with nothing yet. */
    static final String HOW_TO_SEND = "<p class=\"muted\">Send some: <code>java -jar app/target/agent-outcomes.jar "
            + "fleet</code> publishes a simulated fleet to this service; any producer can publish JSON to "
            + "<code>agent-results-json</code> (see the README, \"Publish a result\").</p>";
    /** Agents a bar chart draws at most. */
    static final int MAX_BARS = 30;

    private DashboardPage() {
    }

    /**
     * @param totalsByTenant running totals per tenant; empty when the windows are not keyed by tenant (no card then)
     * @param history        the provider scopes' recent samples, for their sparklines
     */
    public static String render(List<Series> costByModel, List<Series> totalsByAgent, List<Series> totalsByTenant,
                                List<JobReplayState> recentJobs, List<ProviderState> providers, ProviderHistory history,
                                List<BudgetState> budgets, BudgetSettings budgetSettings) {
        StringBuilder html = Html.head("agent-outcomes")
                .append("<h1>agent-outcomes</h1>").append(Html.NAV)
                .append("<p class=\"muted\">Cost, tokens and retries of the agent fleet.</p>");
        if (costByModel.isEmpty() && totalsByAgent.isEmpty() && recentJobs.isEmpty() && providers.isEmpty() && budgets.isEmpty()) {
            // One card says how to send data; the charts come when there is something to draw.
            return html.append("<div class=\"card\" id=\"empty-state\"><h2>Nothing received yet</h2>").append(HOW_TO_SEND)
                    .append("<p class=\"muted\">Or run <code>java -jar app/target/agent-outcomes.jar demo</code>: the service "
                            + "and a fleet in one process.</p></div></body></html>").toString();
        }
        html.append("<div class=\"grid\">");
        // a group with neither cost nor tokens (the workflow nodes' model "unknown" alone) is no line of these charts
        List<Series> models = costByModel.stream().filter(series -> series.points().stream()
                .anyMatch(m -> m.getCostTotal().signum() != 0 || m.getTotalTokens() != 0)).toList();
        html.append(card("Cost per model, USD per minute", "cost-chart",
                lineChart(models, m -> m.getCostTotal().doubleValue(), Amounts::dollars)));
        html.append(card("Tokens per model, per minute", "tokens-chart", lineChart(models, m -> m.getTotalTokens(),
                v -> Amounts.count(v) + " tok")));
        html.append(card("Total cost per model, the windows above", "model-totals", barChart(modelTotals(models),
                AgentMetrics::getModel, m -> m.getCostTotal().doubleValue(), Amounts::dollars)));
        // Part of the tokens above, drawn apart: thinking a model was billed for without it showing in the answer.
        html.append(card("Reasoning tokens per model, per minute", "reasoning-chart", lineChart(models,
                m -> m.getReasoningTokens(), v -> Amounts.count(v) + " tok")));
        List<AgentMetrics> agents = new ArrayList<>();
        totalsByAgent.forEach(series -> agents.addAll(series.points()));
        html.append(card("Retry rate per agent (retries / attempts)", "retry-chart", barChart(agents, AgentMetrics::getAgentId,
                m -> m.getAttempts() == 0 ? 0 : (double) m.getRetries() / m.getAttempts(), v -> String.format(Locale.ROOT, "%.0f %%", v * 100))));
        html.append(card("Dead letters per agent", "dead-letter-chart", barChart(agents, AgentMetrics::getAgentId,
                m -> m.getDeadLetters().values().stream().mapToLong(Long::longValue).sum(), Amounts::count)));
        html.append(card("Slowest agents (p99 duration)", "slowest", table(agents,
                Comparator.comparing((AgentMetrics m) -> m.getDurationP99Ms() == null ? -1 : m.getDurationP99Ms()).reversed(),
                m -> m.getDurationP99Ms() == null ? "—" : Amounts.count(m.getDurationP99Ms()) + " ms", "p99")));
        html.append(card("Most expensive agents (total cost)", "most-expensive", table(agents,
                Comparator.comparing(AgentMetrics::getCostTotal).reversed(),
                m -> Amounts.dollars(m.getCostTotal().doubleValue()), "cost")));
        if (!totalsByTenant.isEmpty()) {
            html.append(card("Cost per tenant (total)", "tenant-cost", tenantTable(totalsByTenant)));
        }
        html.append(card("Providers: circuits and pacing", "providers", ProviderPanel.html(providers, history,
                System.currentTimeMillis())));
        html.append(card("Budgets: spend this period", "budgets", BudgetPanel.html(budgets, budgetSettings)));
        StringBuilder jobs = new StringBuilder("<table id=\"recent-jobs\"><tr><th>Job</th><th>Status</th></tr>");
        for (JobReplayState job : recentJobs) {
            jobs.append("<tr><td><a href=\"/ui/jobs/").append(Html.urlPart(job.getJobId())).append("\">").append(Html.escape(job.getJobId()))
                    .append("</a></td><td>").append(JobStatusView.of(job).html()).append("</td></tr>");
        }
        html.append(card("Recent jobs", "jobs-card", recentJobs.isEmpty() ? "<p class=\"muted\">No jobs yet.</p>"
                : jobs.append("</table><p><a href=\"/ui/jobs\">All jobs</a></p>").toString()));
        return html.append("</div></body></html>").toString();
    }

    private static String card(String title, String id, String body) {
        return "<div class=\"card\" id=\"" + id + "\"><h2>" + Html.escape(title) + "</h2>" + body + "</div>";
    }

    /** One line per series over its windows ({@link LineChart}), at the wall clock's time. */
    static String lineChart(List<Series> series, ToDoubleFunction<AgentMetrics> value, DoubleFunction<String> unit) {
        return LineChart.render(series, value, unit, System.currentTimeMillis());
    }

    /** Each model's windows summed: its cost and tokens over the span the line charts show. */
    static List<AgentMetrics> modelTotals(List<Series> models) {
        List<AgentMetrics> totals = new ArrayList<>();
        for (Series model : models) {
            BigDecimal cost = BigDecimal.ZERO;
            long tokens = 0;
            for (AgentMetrics window : model.points()) {
                cost = cost.add(window.getCostTotal());
                tokens += window.getTotalTokens();
            }
            AgentMetrics total = AgentMetrics.newBuilder(model.points().get(0)).setModel(model.name()).setCostTotal(cost)
                    .setTotalTokens(tokens).build();
            totals.add(total);
        }
        totals.sort(Comparator.comparing(AgentMetrics::getCostTotal).reversed());
        return totals;
    }

    /**
     * One horizontal bar per agent (or per model: {@code name} says which), for at most {@value #MAX_BARS}: past that
     * the ones with the largest values, in their order, and a line saying how many are not drawn (20 000 agents made a
     * page of 20 000 bars per chart).
     */
    static String barChart(List<AgentMetrics> all, Function<AgentMetrics, String> name, ToDoubleFunction<AgentMetrics> value,
                           DoubleFunction<String> label) {
        if (all.isEmpty()) {
            return Html.EMPTY;
        }
        List<AgentMetrics> agents = all;
        String more = "";
        if (all.size() > MAX_BARS) {
            Set<AgentMetrics> largest = Collections.newSetFromMap(new IdentityHashMap<>());
            all.stream().sorted(Comparator.comparingDouble(value).reversed()).limit(MAX_BARS).forEach(largest::add);
            agents = all.stream().filter(largest::contains).toList();
            more = "<p class=\"muted\">" + Amounts.count(all.size() - MAX_BARS) + " more agents, with smaller values, not drawn.</p>";
        }
        double max = agents.stream().mapToDouble(value).max().orElse(0);
        StringBuilder svg = new StringBuilder("<svg viewBox=\"0 0 560 ").append(agents.size() * 26 + 6)
                .append("\" width=\"100%\" role=\"img\">");
        for (int i = 0; i < agents.size(); i++) {
            AgentMetrics agent = agents.get(i);
            double v = value.applyAsDouble(agent);
            // a zero still draws a sliver, so every agent has a mark; its label says 0
            double w = Math.max(2, max <= 0 ? 0 : v / max * 330);
            int y = i * 26 + 4;
            String named = name.apply(agent);
            svg.append("<text x=\"0\" y=\"").append(y + 14).append("\">").append(Html.escape(named))
                    .append("</text><rect class=\"bar\" data-agent=\"").append(Html.escape(named))
                    .append("\" x=\"150\" y=\"").append(y).append("\" height=\"18\" width=\"")
                    .append(String.format(Locale.ROOT, "%.1f", w)).append("\" fill=\"").append(PALETTE[0])
                    .append("\"/><text class=\"value\" data-agent=\"").append(Html.escape(named))
                    .append("\" x=\"").append(String.format(Locale.ROOT, "%.1f", 156 + w)).append("\" y=\"")
                    .append(y + 14).append("\">").append(label.apply(v)).append("</text>");
        }
        return svg.append("</svg>").append(more).toString();
    }

    /** The tenants by total cost, the most expensive first (at most 10), with their tokens and results. */
    static String tenantTable(List<Series> tenants) {
        StringBuilder table = new StringBuilder("<table id=\"tenants\"><tr><th>Tenant</th><th>cost</th><th>tokens</th>"
                + "<th>results</th></tr>");
        tenants.stream().filter(tenant -> !tenant.points().isEmpty())
                .sorted(Comparator.comparing((Series tenant) -> tenant.points().get(0).getCostTotal()).reversed()
                        .thenComparing(Series::name))
                .limit(10).forEach(tenant -> {
                    AgentMetrics total = tenant.points().get(0);
                    long results = total.getCompletions().values().stream().mapToLong(Long::longValue).sum();
                    table.append("<tr><td>").append(Html.escape(tenant.name())).append("</td><td class=\"n\">")
                            .append(Amounts.dollars(total.getCostTotal().doubleValue())).append("</td><td class=\"n\">")
                            .append(Amounts.count(total.getTotalTokens())).append("</td><td class=\"n\">").append(Amounts.count(results))
                            .append("</td></tr>");
                });
        return table.append("</table>").toString();
    }

    private static String table(List<AgentMetrics> agents, Comparator<AgentMetrics> order,
                                Function<AgentMetrics, String> value, String column) {
        if (agents.isEmpty()) {
            return Html.EMPTY;
        }
        StringBuilder table = new StringBuilder("<table><tr><th>Agent</th><th>").append(column).append("</th></tr>");
        agents.stream().sorted(order).limit(5).forEach(agent -> table.append("<tr><td>")
                .append(Html.escape(agent.getAgentId())).append("</td><td class=\"n\">").append(value.apply(agent))
                .append("</td></tr>"));
        return table.append("</table>").toString();
    }
}

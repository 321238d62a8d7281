package io.agentoutcomes.app.http;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.JobReplayState;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The dashboard at {@code GET /}: cost and tokens over time per model (1-minute windows), retry rate and dead letters
 * per agent, the slowest and most expensive agents (running totals), and links to the job timelines. Drawn as inline
 * SVG from the analytics API's data; no script, no CDN.
 */
public final class DashboardPage {
    private static final String[] PALETTE = {"#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037"};
    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1a1a1a;max-width:75rem}
            h1{font-size:1.4rem} h2{font-size:1.05rem;margin:1.5rem 0 .4rem} .muted{color:#666} a{color:#1565c0}
            .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(34rem,1fr));gap:1.2rem}
            .card{border:1px solid #e0e0e0;border-radius:.4rem;padding:.8rem 1rem}
            svg text{font-size:11px;fill:#555} .legend span{margin-right:1rem;font-size:.85rem}
            .swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:.15rem;vertical-align:middle;margin-right:.3rem}
            table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #eee;padding:.25rem .5rem .25rem 0;text-align:left;font-size:.9rem}
            td.n{text-align:right;font-variant-numeric:tabular-nums}
            """;

    private DashboardPage() {
    }

    public static String render(List<AnalyticsQueries.Series> costByModel, List<AnalyticsQueries.Series> totalsByAgent,
                                List<JobReplayState> recentJobs) {
        StringBuilder html = new StringBuilder(16_384).append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>agent-outcomes</title><style>").append(STYLE).append("</style></head><body>")
                .append("<h1>agent-outcomes</h1><p class=\"muted\">Cost, tokens and retries of the agent fleet. ")
                .append("<a href=\"/analytics?window=1m&amp;by=model\">/analytics</a> · <a href=\"/metrics\">/metrics</a> · ")
                .append("<a href=\"/ui/jobs\">jobs</a></p><div class=\"grid\">");
        html.append(card("Cost per model, USD per minute", "cost-chart",
                lineChart(costByModel, m -> m.getCostTotal().doubleValue())));
        html.append(card("Tokens per model, per minute", "tokens-chart", lineChart(costByModel, m -> m.getTotalTokens())));
        List<AgentMetrics> agents = new ArrayList<>();
        totalsByAgent.forEach(series -> agents.addAll(series.points()));
        html.append(card("Retry rate per agent (retries / attempts)", "retry-chart", barChart(agents,
                m -> m.getAttempts() == 0 ? 0 : (double) m.getRetries() / m.getAttempts(), v -> String.format(Locale.ROOT, "%.0f %%", v * 100))));
        html.append(card("Dead letters per agent", "dead-letter-chart", barChart(agents,
                m -> m.getDeadLetters().values().stream().mapToLong(Long::longValue).sum(), v -> String.format(Locale.ROOT, "%.0f", v))));
        html.append(card("Slowest agents (p99 duration)", "slowest", table(agents,
                Comparator.comparing((AgentMetrics m) -> m.getDurationP99Ms() == null ? -1 : m.getDurationP99Ms()).reversed(),
                m -> m.getDurationP99Ms() == null ? "—" : m.getDurationP99Ms() + " ms", "p99")));
        html.append(card("Most expensive agents (total cost)", "most-expensive", table(agents,
                Comparator.comparing(AgentMetrics::getCostTotal).reversed(),
                m -> "$" + m.getCostTotal().setScale(6, java.math.RoundingMode.HALF_UP).toPlainString(), "cost")));
        StringBuilder jobs = new StringBuilder("<table id=\"recent-jobs\"><tr><th>Job</th><th>Status</th></tr>");
        for (JobReplayState job : recentJobs) {
            jobs.append("<tr><td><a href=\"/ui/jobs/").append(java.net.URLEncoder.encode(job.getJobId(),
                    java.nio.charset.StandardCharsets.UTF_8)).append("\">").append(TimelinePage.escape(job.getJobId()))
                    .append("</a></td><td>").append(job.getStatus().name().toLowerCase(Locale.ROOT)).append("</td></tr>");
        }
        html.append(card("Recent jobs", "jobs-card", recentJobs.isEmpty() ? "<p class=\"muted\">No jobs yet.</p>"
                : jobs.append("</table>").toString()));
        return html.append("</div></body></html>").toString();
    }

    private static String card(String title, String id, String body) {
        return "<div class=\"card\" id=\"" + id + "\"><h2>" + TimelinePage.escape(title) + "</h2>" + body + "</div>";
    }

    /** One line per series over its windows. */
    static String lineChart(List<AnalyticsQueries.Series> series, ToDoubleFunction<AgentMetrics> value) {
        if (series.isEmpty()) {
            return "<p class=\"muted\">No data yet.</p>";
        }
        long minX = Long.MAX_VALUE;
        long maxX = Long.MIN_VALUE;
        double maxY = 0;
        for (AnalyticsQueries.Series s : series) {
            for (AgentMetrics point : s.points()) {
                long x = point.getWindowStart() == null ? 0 : point.getWindowStart().toEpochMilli();
                minX = Math.min(minX, x);
                maxX = Math.max(maxX, x);
                maxY = Math.max(maxY, value.applyAsDouble(point));
            }
        }
        double width = 520;
        double height = 180;
        double spanX = Math.max(1, maxX - minX);
        double spanY = maxY <= 0 ? 1 : maxY;
        StringBuilder svg = new StringBuilder("<svg viewBox=\"0 0 560 210\" width=\"100%\" role=\"img\">")
                .append("<line x1=\"30\" y1=\"190\" x2=\"550\" y2=\"190\" stroke=\"#bbb\"/>")
                .append("<text x=\"30\" y=\"205\">").append(Instant.ofEpochMilli(minX)).append("</text>")
                .append("<text x=\"2\" y=\"14\">").append(format(maxY)).append("</text>");
        StringBuilder legend = new StringBuilder("<div class=\"legend\">");
        for (int i = 0; i < series.size(); i++) {
            AnalyticsQueries.Series s = series.get(i);
            String colour = PALETTE[i % PALETTE.length];
            StringBuilder points = new StringBuilder();
            for (AgentMetrics point : s.points()) {
                long x = point.getWindowStart() == null ? 0 : point.getWindowStart().toEpochMilli();
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", 30 + (x - minX) / spanX * width,
                        190 - value.applyAsDouble(point) / spanY * height));
            }
            svg.append("<polyline class=\"series\" data-series=\"").append(TimelinePage.escape(s.name()))
                    .append("\" fill=\"none\" stroke-width=\"2\" stroke=\"").append(colour).append("\" points=\"")
                    .append(points.toString().trim()).append("\"/>");
            legend.append("<span><i class=\"swatch\" style=\"background:").append(colour).append("\"></i>")
                    .append(TimelinePage.escape(s.name())).append("</span>");
        }
        return svg.append("</svg>").toString() + legend.append("</div>");
    }

    /** One horizontal bar per agent. */
    static String barChart(List<AgentMetrics> agents, ToDoubleFunction<AgentMetrics> value,
                           java.util.function.DoubleFunction<String> label) {
        if (agents.isEmpty()) {
            return "<p class=\"muted\">No data yet.</p>";
        }
        double max = agents.stream().mapToDouble(value).max().orElse(0);
        StringBuilder svg = new StringBuilder("<svg viewBox=\"0 0 560 ").append(agents.size() * 26 + 6)
                .append("\" width=\"100%\" role=\"img\">");
        for (int i = 0; i < agents.size(); i++) {
            AgentMetrics agent = agents.get(i);
            double v = value.applyAsDouble(agent);
            double w = max <= 0 ? 0 : v / max * 330;
            int y = i * 26 + 4;
            svg.append("<text x=\"0\" y=\"").append(y + 14).append("\">").append(TimelinePage.escape(agent.getAgentId()))
                    .append("</text><rect class=\"bar\" data-agent=\"").append(TimelinePage.escape(agent.getAgentId()))
                    .append("\" x=\"150\" y=\"").append(y).append("\" height=\"18\" width=\"")
                    .append(String.format(Locale.ROOT, "%.1f", w)).append("\" fill=\"").append(PALETTE[0])
                    .append("\"/><text x=\"").append(String.format(Locale.ROOT, "%.1f", 156 + w)).append("\" y=\"")
                    .append(y + 14).append("\">").append(label.apply(v)).append("</text>");
        }
        return svg.append("</svg>").toString();
    }

    private static String table(List<AgentMetrics> agents, Comparator<AgentMetrics> order,
                                java.util.function.Function<AgentMetrics, String> value, String column) {
        if (agents.isEmpty()) {
            return "<p class=\"muted\">No data yet.</p>";
        }
        StringBuilder table = new StringBuilder("<table><tr><th>Agent</th><th>").append(column).append("</th></tr>");
        agents.stream().sorted(order).limit(5).forEach(agent -> table.append("<tr><td>")
                .append(TimelinePage.escape(agent.getAgentId())).append("</td><td class=\"n\">").append(value.apply(agent))
                .append("</td></tr>"));
        return table.append("</table>").toString();
    }

    private static String format(double value) {
        return value >= 1 ? String.format(Locale.ROOT, "%.2f", value)
                : new BigDecimal(value).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }
}

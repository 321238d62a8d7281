package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.app.http.query.ProviderHistory;
import io.agentoutcomes.app.http.query.ProviderHistory.Sample;
import io.agentoutcomes.app.http.query.ProviderQueries;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RequestBudget;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dashboard's provider panel: each pacing scope's circuit (and since when), a sparkline of the retries its circuit
 * or budget held and paced over the last samples ({@link ProviderSparkline}, from {@link ProviderHistory}) with the
 * counts now, its request budgets as the gate counts them, its retry budget (spent, and the retries it stopped), the
 * retries moved to a fallback model (from it, and to it), and how often its circuit opened.
 */
final class ProviderPanel {
    private ProviderPanel() {
    }

    static String html(List<ProviderState> scopes, ProviderHistory history, long now) {
        if (scopes.isEmpty()) {
            return "<p class=\"muted empty\">No provider seen yet.</p>";
        }
        long interval = history.interval().toMillis();
        StringBuilder table = new StringBuilder("<table id=\"providers-table\"><tr><th>Provider / model</th><th>Circuit</th>"
                + "<th>Retries held and paced</th><th>Request budget</th><th>Retry budget</th><th>Fallbacks</th><th>Opened</th></tr>");
        Map<String, List<FallbackCount>> moved = ProviderQueries.movedAway(scopes);
        for (ProviderState scope : scopes) {
            String name = scope.getProvider() + (scope.getModel() == null ? "" : " / " + scope.getModel());
            List<Sample> samples = history.samples(scope.getProvider(), scope.getModel());
            table.append("<tr><td>").append(Html.escape(name))
                    .append("</td><td class=\"circuit-").append(scope.getCircuit().name().toLowerCase(Locale.ROOT)).append("\">")
                    .append(circuit(scope)).append("</td><td class=\"retries\">")
                    .append(ProviderSparkline.svg(name, samples, interval)).append("<br><span class=\"held-now\">")
                    .append(Amounts.count(scope.getHeld())).append("</span> held now · ")
                    .append(samples.isEmpty() ? "" : ProviderSparkline.pacedText(samples, interval) + ", ")
                    .append("<span class=\"paced-all\">").append(Amounts.count(scope.getPaced()))
                    .append("</span> in all</td><td>")
                    .append(budgets(scope.getBudgets(), now)).append("</td><td class=\"retry-budget\">")
                    .append(retryBudget(scope)).append("</td><td class=\"fallbacks\">")
                    .append(fallbacks(moved.getOrDefault(ProviderQueries.name(scope.getProvider(), scope.getModel()), List.of()),
                            scope.getFallbacksReceived()))
                    .append("</td><td>").append(scope.getOpened()).append("</td></tr>");
        }
        return table.append("</table><div class=\"legend\"><span><i class=\"swatch\" style=\"background:")
                .append(ProviderSparkline.HELD).append("\"></i>held at each sample</span><span><i class=\"swatch\" style=\"background:")
                .append(ProviderSparkline.PACED).append("\"></i>paced (released after a hold) since the sample before</span>")
                .append(" <span class=\"muted\">a sample every ").append(ProviderSparkline.duration(interval)).append(", the last ")
                .append(ProviderHistory.SAMPLES).append("</span></div>").toString();
    }

    private static String circuit(ProviderState scope) {
        String state = switch (scope.getCircuit()) {
            case CLOSED -> "closed";
            case HALF_OPEN -> "half-open";
            case OPEN -> "open";
        };
        return scope.getCircuit() == CircuitState.CLOSED ? state
                : state + " since " + Html.escape(Instant.ofEpochMilli(scope.getSince()).toString());
    }

    /** Whether the retry budget alone holds the scope's retries, since when, and how many it stopped. */
    private static String retryBudget(ProviderState scope) {
        String state = scope.getBudgetExhaustedSince() > 0
                ? "<span class=\"exhausted\">spent since " + Html.escape(Instant.ofEpochMilli(scope.getBudgetExhaustedSince()).toString())
                        + "</span>"
                : "within";
        return scope.getBudgetStopped() == 0 ? state : state + ", " + scope.getBudgetStopped() + " stopped";
    }

    /** The retries moved from the scope to each fallback, and to it from each scope, with why; "—" for none. */
    private static String fallbacks(List<FallbackCount> movedAway, List<FallbackCount> received) {
        StringBuilder text = new StringBuilder();
        for (FallbackCount count : movedAway) {
            text.append(text.length() == 0 ? "" : "<br>").append(Amounts.count(count.getRetries())).append(" moved to ")
                    .append(Html.escape(ProviderQueries.name(count.getProvider(), count.getModel()))).append(", ").append(cause(count));
        }
        for (FallbackCount count : received) {
            text.append(text.length() == 0 ? "" : "<br>").append(Amounts.count(count.getRetries())).append(" taken from ")
                    .append(Html.escape(ProviderQueries.name(count.getProvider(), count.getModel()))).append(", ").append(cause(count));
        }
        return text.length() == 0 ? "—" : text.toString();
    }

    private static String cause(FallbackCount count) {
        return count.getCause().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String budgets(List<RequestBudget> budgets, long now) {
        if (budgets.isEmpty()) {
            return "—";
        }
        StringBuilder text = new StringBuilder();
        for (RequestBudget budget : budgets) {
            // The limit, then whether it holds retries now: the bucket holds at most one check's burst, so a count of
            // what it holds ("0 of 500") read as exhausted while retries flowed at the limit's pace.
            text.append(text.length() == 0 ? "" : "<br>").append(Html.escape(budget.getWindow())).append(": ")
                    .append(budget.getLimit() == null ? "no limit given" : budget.getLimit() + " per " + budget.getLengthMs() / 1000 + " s");
            if (budget.getBlockedUntil() > now) {
                text.append(", <span class=\"exhausted\">exhausted until ")
                        .append(Html.escape(Instant.ofEpochMilli(budget.getBlockedUntil()).toString())).append("</span>");
            } else {
                text.append(", retries paced to it");
            }
        }
        return text.toString();
    }
}

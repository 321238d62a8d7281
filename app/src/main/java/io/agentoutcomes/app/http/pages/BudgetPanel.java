package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.avro.BudgetPeriodSpend;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;

/**
 * The dashboard's budgets card: each budget value's spend in its latest period against the limit, the share used and
 * the thresholds crossed (each alerted once on {@code budget-alerts}).
 */
final class BudgetPanel {
    private BudgetPanel() {
    }

    static String html(List<BudgetState> values, BudgetSettings settings) {
        if (!settings.enabled()) {
            return "<p class=\"muted empty\">No budget declared (budget.&lt;name&gt;.* settings, docs/analytics.md).</p>";
        }
        if (values.isEmpty()) {
            return "<p class=\"muted empty\">No spend counted against a budget yet.</p>";
        }
        StringBuilder table = new StringBuilder("<table id=\"budgets-table\"><tr><th>Budget</th><th>Value</th><th>Period</th>"
                + "<th>Spend</th><th>Limit</th><th>Used</th><th>Crossed</th></tr>");
        for (BudgetState value : values) {
            Budget budget = settings.budget(value.getBudget());
            if (budget == null || value.getPeriods().isEmpty()) {
                continue;
            }
            BudgetPeriodSpend period = value.getPeriods().get(value.getPeriods().size() - 1);
            BigDecimal spend = Money.toDecimal(period.getSpend());
            BigDecimal used = spend.multiply(BigDecimal.valueOf(100)).divide(budget.limitUsd(), 0, RoundingMode.DOWN);
            table.append("<tr><td>").append(Html.escape(budget.name())).append("</td><td>")
                    .append(Html.escape(budget.dimension().label() + " " + value.getValue())).append("</td><td>")
                    .append(Budget.label(budget.period())).append(" from ")
                    .append(Html.escape(Instant.ofEpochMilli(period.getStart()).toString())).append("</td><td>")
                    .append(Amounts.dollars(spend.doubleValue())).append("</td><td>")
                    .append(Amounts.dollars(budget.limitUsd().doubleValue())).append("</td><td")
                    .append(period.getExhausted() ? " class=\"exhausted\"" : "").append(">").append(progress(used)).append(used)
                    .append(" %</td><td>")
                    .append(period.getCrossed().isEmpty() ? "—" : Html.escape(period.getCrossed() + " %")).append("</td></tr>");
        }
        return table.append("</table>").toString();
    }

    /** A bar of the share used, full at 100 % and beyond (red from 100 %, amber from 80 %). */
    static String progress(BigDecimal used) {
        int width = Math.min(100, Math.max(0, used.intValue()));
        String colour = used.intValue() >= 100 ? "#c62828" : used.intValue() >= 80 ? "#ef6c00" : "#2e7d32";
        return "<span class=\"progress\" title=\"" + used + " % of the limit\"><span style=\"width:" + width
                + "%;background:" + colour + "\"></span></span>";
    }
}

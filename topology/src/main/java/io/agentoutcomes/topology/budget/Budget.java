package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.analytics.Dimension;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * One declared cost budget ({@code budget.<name>.*}): spend of a dimension's value (a tenant, an agent, a model, ...)
 * per calendar period, against a limit, with the thresholds that alert.
 *
 * @param name        the budget's name, as declared
 * @param dimension   what it counts by ({@link Dimension}: the analytics' own list, so a dimension added there is one here)
 * @param value       the one value it counts; null: every value of the dimension gets a budget of its own
 * @param period      the UTC calendar period spend is counted over
 * @param limitUsd    the limit per period, USD (exact, at most 12 decimals)
 * @param thresholds  percentages of the limit that alert once per period, ascending
 * @param stopRetries whether retries of results counting against it stop once it is exhausted (budget-aware retries)
 */
public record Budget(String name, Dimension dimension, String value, BudgetPeriod period, BigDecimal limitUsd,
                     List<Integer> thresholds, boolean stopRetries) {
    /** The thresholds of a budget that declares none. */
    public static final List<Integer> DEFAULT_THRESHOLDS = List.of(50, 80, 100);
    /** Joins a budget's name and a value into the key of its spend, alerts and status (as the provider scope does). */
    public static final char SEPARATOR = '\u001f';
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    public Budget {
        if (name == null || name.isBlank() || name.indexOf(SEPARATOR) >= 0 || name.contains(".")) {
            throw new IllegalArgumentException("a budget needs a name without dots, was '" + name + "'");
        }
        if (dimension == null || period == null) {
            throw new IllegalArgumentException("budget " + name + " needs a dimension and a period");
        }
        if (limitUsd == null || limitUsd.signum() <= 0 || !Money.fits(limitUsd)) {
            throw new IllegalArgumentException("budget " + name + " needs a limit above 0 USD with at most "
                    + Money.SCALE + " decimals, was " + limitUsd);
        }
        if (thresholds == null || thresholds.isEmpty()) {
            throw new IllegalArgumentException("budget " + name + " needs at least one threshold");
        }
        thresholds = thresholds.stream().distinct().sorted().toList();
        if (thresholds.get(0) < 1 || thresholds.get(thresholds.size() - 1) > 1000) {
            throw new IllegalArgumentException("budget " + name + "'s thresholds must be percentages from 1 to 1000, were "
                    + thresholds);
        }
        if (value != null && value.isBlank()) {
            value = null;
        }
    }

    /** The value of this budget's dimension a result's spend counts against; null if it counts against none of its. */
    public String valueOf(AgentResult result) {
        String stated = dimension.of(result);
        if (stated == null || value != null && !value.equals(stated)) {
            return null;
        }
        return stated;
    }

    /** The key of a value's spend, alerts and status: the budget's name and the value. */
    public String key(String of) {
        return name + SEPARATOR + of;
    }

    /** Whether {@code spend} (USD) reaches {@code percent} of the limit: exactly, in decimals. */
    public boolean reaches(BigDecimal spend, int percent) {
        return spend.multiply(HUNDRED).compareTo(limitUsd.multiply(BigDecimal.valueOf(percent))) >= 0;
    }

    /** The budget's name in a key; the value is what follows the separator. */
    public static String nameOf(String key) {
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? key : key.substring(0, at);
    }

    public static String valueOf(String key) {
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? "" : key.substring(at + 1);
    }

    /** The period's label in settings and text: {@code day}, {@code week}, {@code month}. */
    public static String label(BudgetPeriod period) {
        return period.name().toLowerCase(Locale.ROOT);
    }
}

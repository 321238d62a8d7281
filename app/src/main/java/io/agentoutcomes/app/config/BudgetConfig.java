package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The declared cost budgets (settings families, the budget stage's settings group) as the topology's
 * {@link BudgetSettings}:
 *
 * <pre>
 * budget.&lt;name&gt;.dimension=agent      any {@link Dimension} (as /analytics?by= names it); required
 * budget.&lt;name&gt;.value=acme            the one value it counts; absent: each value a budget of its own
 * budget.&lt;name&gt;.period=week           any {@link BudgetPeriod}, in lower case (UTC calendar periods); default day
 * budget.&lt;name&gt;.limit.usd=25          required, above 0
 * budget.&lt;name&gt;.thresholds=50,80,100 percentages of the limit that alert, once per period each
 * budget.&lt;name&gt;.stop-retries=false   true: retries of results counting against it stop once it is exhausted
 * </pre>
 */
public final class BudgetConfig implements StageConfig<BudgetSettings> {
    static final String PREFIX = "budget.";
    static final String DIMENSION = ".dimension";
    static final String VALUE = ".value";
    static final String PERIOD = ".period";
    static final String LIMIT = ".limit.usd";
    static final String THRESHOLDS = ".thresholds";
    static final String STOP_RETRIES = ".stop-retries";
    /** The period of a budget that names none. */
    static final BudgetPeriod DEFAULT_PERIOD = BudgetPeriod.DAY;
    /** Every part of a budget's declaration, by the suffix of its setting. */
    static final List<String> PARTS = List.of(DIMENSION, VALUE, PERIOD, LIMIT, THRESHOLDS, STOP_RETRIES);
    /** The settings of a budget, declared as families (the settings table lists them). */
    static final List<SettingFamily> FAMILIES = List.of(
            new SettingFamily("budget.<name>.dimension", "budget.acme-daily.dimension", Headings.ANALYTICS, Type.STRING,
                    "a dimension: " + Stream.of(Dimension.values()).map(Dimension::label).collect(Collectors.joining(", ")), "no budget",
                    "Declares the cost budget <name> (no dots), counting spend by this dimension (docs/analytics.md, \"Budgets\").",
                    name -> declares(name, DIMENSION)),
            new SettingFamily("budget.<name>.value", "budget.acme-daily.value", Headings.ANALYTICS, Type.STRING, "a value of the dimension",
                    "each value its own budget", "The one value the budget counts (a tenant, an agent).",
                    name -> declares(name, VALUE)),
            new SettingFamily("budget.<name>.period", "budget.acme-daily.period", Headings.ANALYTICS, Type.STRING,
                    String.join(", ", EnumWords.words(BudgetPeriod.class)), EnumWords.word(DEFAULT_PERIOD), "The UTC calendar period spend is counted over (week: ISO, from Monday), by each result's event time.",
                    name -> declares(name, PERIOD)),
            new SettingFamily("budget.<name>.limit.usd", "budget.acme-daily.limit.usd", Headings.ANALYTICS, Type.STRING,
                    "US dollars above 0, at most 12 decimals", "required", "The budget's limit per period.",
                    name -> declares(name, LIMIT)),
            new SettingFamily("budget.<name>.thresholds", "budget.acme-daily.thresholds", Headings.ANALYTICS, Type.LIST,
                    "percentages of the limit, 1 to 1000", "50,80,100",
                    "Each threshold crossed is published once per period on budget-alerts.",
                    name -> declares(name, THRESHOLDS)),
            new SettingFamily("budget.<name>.stop-retries", "budget.acme-daily.stop-retries", Headings.ANALYTICS, Type.BOOLEAN,
                    "true, false", "false",
                    "Budget-aware retries: once the budget is exhausted in a period, retries of failures counting against it stop (dead-letter, stop reason budget_exceeded).",
                    name -> declares(name, STOP_RETRIES)));

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations;
    }

    @Override
    public List<SettingFamily> families() {
        return FAMILIES;
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, BudgetSettings value) {
        return pipeline.budgets(value);
    }

    /** Whether a setting declares a part of a budget: {@code budget.<name><part>}. */
    static boolean declares(String name, String part) {
        return name.startsWith(PREFIX) && name.endsWith(part) && name.length() > PREFIX.length() + part.length();
    }

    /** The budgets declared by the families' settings; the stage's repartition topic as wide as the topics. */
    @Override
    public BudgetSettings parse(ParsedConfig config) {
        Map<String, Map<String, String>> declared = new TreeMap<>();
        config.families().forEach((key, value) -> PARTS.stream().filter(part -> declares(key, part)).findFirst().ifPresent(part -> {
            String name = key.substring(PREFIX.length(), key.length() - part.length());
            declared.computeIfAbsent(name, n -> new TreeMap<>()).put(part, value == null ? "" : value.trim());
        }));
        List<Budget> budgets = new ArrayList<>();
        declared.forEach((name, parts) -> budgets.add(budget(name, parts)));
        return BudgetSettings.of(budgets, config.partitions());
    }

    private static Budget budget(String name, Map<String, String> parts) {
        String at = PREFIX + name;
        if (name.contains(".")) {
            throw new ConfigError("Budget name '" + name + "' (" + at + ".*) must not contain dots");
        }
        String dimension = parts.getOrDefault(DIMENSION, "");
        if (dimension.isEmpty()) {
            throw new ConfigError(at + DIMENSION + " must be set: " + Dimension.labels());
        }
        Dimension by;
        try {
            by = Dimension.of(dimension);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(at + DIMENSION + " must be " + Dimension.labels() + ", was '" + dimension + "'");
        }
        String limit = parts.getOrDefault(LIMIT, "");
        BigDecimal usd;
        try {
            usd = new BigDecimal(limit);
        } catch (NumberFormatException e) {
            throw new ConfigError(at + LIMIT + " must be set to an amount of US dollars above 0, e.g. 25 or 0.50, was '"
                    + limit + "'");
        }
        try {
            return new Budget(name, by, parts.get(VALUE), period(at, parts.getOrDefault(PERIOD, "")), usd,
                    thresholds(at, parts.getOrDefault(THRESHOLDS, "")), stopRetries(at, parts.getOrDefault(STOP_RETRIES, "")));
        } catch (IllegalArgumentException e) {
            throw new ConfigError(at + ".*: " + e.getMessage());
        }
    }

    private static BudgetPeriod period(String at, String period) {
        if (period.isEmpty()) {
            return DEFAULT_PERIOD;
        }
        try {
            return EnumWords.of(BudgetPeriod.class, period);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(at + PERIOD + " must be " + EnumWords.listed(EnumWords.words(BudgetPeriod.class))
                    + ", was '" + period + "'");
        }
    }

    private static List<Integer> thresholds(String at, String thresholds) {
        if (thresholds.isEmpty()) {
            return Budget.DEFAULT_THRESHOLDS;
        }
        List<Integer> percents = new ArrayList<>();
        for (String percent : thresholds.split(",")) {
            try {
                percents.add(Integer.parseInt(percent.trim().replace("%", "")));
            } catch (NumberFormatException e) {
                throw new ConfigError(at + THRESHOLDS + " must be percentages of the limit, e.g. 50,80,100, was '"
                        + thresholds + "'");
            }
        }
        return percents;
    }

    private static boolean stopRetries(String at, String value) {
        if (value.isEmpty() || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw new ConfigError(at + STOP_RETRIES + " must be true or false, was '" + value + "'");
    }
}

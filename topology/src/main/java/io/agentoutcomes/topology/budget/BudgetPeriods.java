package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.BudgetPeriod;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.function.UnaryOperator;

/**
 * The UTC calendar periods budgets are counted over: a day from midnight, the ISO week from Monday, a month from its
 * first day. Which period a cost falls in is decided by its result's event time (the record timestamp), so a replay
 * of the same records counts the same.
 */
public final class BudgetPeriods {
    private static final Span DAY = new Span(day -> day, Period.ofDays(1));
    private static final Span WEEK = new Span(day -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)), Period.ofWeeks(1));
    private static final Span MONTH = new Span(day -> day.withDayOfMonth(1), Period.ofMonths(1));

    /** Where a period starts, given the day a time falls on, and how long it lasts. */
    private record Span(UnaryOperator<ZonedDateTime> start, Period length) {
    }

    private BudgetPeriods() {
    }

    /** The start of the period holding {@code time}. */
    public static long start(BudgetPeriod period, long time) {
        ZonedDateTime day = Instant.ofEpochMilli(time).atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS);
        return span(period).start().apply(day).toInstant().toEpochMilli();
    }

    /** The end (exclusive) of the period starting at {@code start}. */
    public static long end(BudgetPeriod period, long start) {
        return Instant.ofEpochMilli(start).atZone(ZoneOffset.UTC).plus(span(period).length()).toInstant().toEpochMilli();
    }

    /** The start of the period before the one starting at {@code start}. */
    public static long previous(BudgetPeriod period, long start) {
        return start(period, start - 1);
    }

    /** Each period's span, the one place a period is described (exhaustive: a new period fails the build here). */
    private static Span span(BudgetPeriod period) {
        return switch (period) {
            case DAY -> DAY;
            case WEEK -> WEEK;
            case MONTH -> MONTH;
        };
    }
}

package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.BudgetPeriod;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;

/**
 * The UTC calendar periods budgets are counted over: a day from midnight, the ISO week from Monday, a month from its
 * first day. Which period a cost falls in is decided by its result's event time (the record timestamp), so a replay
 * of the same records counts the same.
 */
public final class BudgetPeriods {
    private BudgetPeriods() {
    }

    /** The start of the period holding {@code time}. */
    public static long start(BudgetPeriod period, long time) {
        ZonedDateTime day = Instant.ofEpochMilli(time).atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS);
        ZonedDateTime start = switch (period) {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> day.withDayOfMonth(1);
        };
        return start.toInstant().toEpochMilli();
    }

    /** The end (exclusive) of the period starting at {@code start}. */
    public static long end(BudgetPeriod period, long start) {
        ZonedDateTime from = Instant.ofEpochMilli(start).atZone(ZoneOffset.UTC);
        ZonedDateTime end = switch (period) {
            case DAY -> from.plusDays(1);
            case WEEK -> from.plusWeeks(1);
            case MONTH -> from.plusMonths(1);
        };
        return end.toInstant().toEpochMilli();
    }

    /** The start of the period before the one starting at {@code start}. */
    public static long previous(BudgetPeriod period, long start) {
        return start(period, start - 1);
    }
}

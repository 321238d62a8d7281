package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.app.http.query.AnalyticsQueries.Series;
import io.agentoutcomes.avro.AgentMetrics;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * A line chart of 1-minute windows as inline SVG: one line per series, broken where a minute has no window (an empty
 * minute is not a line drawn through it), a dot on every point, the y axis on round steps (1, 2 or 5 times a power of
 * ten, each label once), the window still open marked apart (its dot hollow, a band labelled "open": its figures are
 * still growing).
 */
final class LineChart {
    static final long WINDOW_MS = 60_000;
    private static final double LEFT = 78;
    private static final double WIDTH = 460;
    private static final double TOP = 10;
    private static final double HEIGHT = 170;
    private static final String[] PALETTE = {"#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037"};

    private LineChart() {
    }

    static String render(List<Series> series, ToDoubleFunction<AgentMetrics> value, DoubleFunction<String> unit, long now) {
        if (series.isEmpty()) {
            return Html.EMPTY;
        }
        long minX = Long.MAX_VALUE;
        long maxX = Long.MIN_VALUE;
        double maxY = 0;
        for (Series s : series) {
            for (AgentMetrics point : s.points()) {
                minX = Math.min(minX, start(point));
                maxX = Math.max(maxX, start(point));
                maxY = Math.max(maxY, value.applyAsDouble(point));
            }
        }
        List<Double> ticks = ticks(maxY, 0);
        // a step finer than the unit shows (0.5 of a count of tokens) would write one label at two values: coarser
        for (int coarser = 0; coarser < 10 && !distinct(ticks, unit); coarser++) {
            ticks = ticks(maxY, ticks.get(1) * 1.01);
        }
        double top = ticks.get(ticks.size() - 1);
        StringBuilder svg = new StringBuilder("<svg viewBox=\"0 0 560 215\" width=\"100%\" role=\"img\">");
        String previous = null;
        for (double tick : ticks) {
            String label = unit.apply(tick);
            if (label.equals(previous)) {
                continue;
            }
            previous = label;
            double y = TOP + HEIGHT - tick / top * HEIGHT;
            svg.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\"/>",
                    LEFT, y, LEFT + WIDTH, y, tick == 0 ? "#999" : "#eee"));
            svg.append(String.format(Locale.ROOT, "<text class=\"y-label\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                    LEFT - 6, y + 4, Html.escape(label)));
        }
        // under its point: at the left edge, or in the middle when every point is of one window
        svg.append(String.format(Locale.ROOT, "<text class=\"x-label\" x=\"%.0f\" y=\"208\"%s>%s</text>", x(minX, minX, maxX),
                maxX == minX ? " text-anchor=\"middle\"" : "", time(minX)));
        if (maxX > minX && !time(maxX).equals(time(minX))) {
            // Under the last point: each point is drawn at its window's start, and so labelled.
            svg.append(String.format(Locale.ROOT, "<text class=\"x-label\" x=\"%.0f\" y=\"208\" text-anchor=\"end\">%s</text>",
                    LEFT + WIDTH, time(maxX)));
        }
        if (maxX + WINDOW_MS > now) {
            double x = x(maxX, minX, maxX);
            svg.append(String.format(Locale.ROOT, "<rect class=\"open-window\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" "
                    + "fill=\"#f3f3f3\"><title>the window from %s is still open: its figures grow until it closes</title></rect>"
                    + "<text class=\"open-label\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"end\">open</text>",
                    x - 6, TOP, LEFT + WIDTH + 6 - (x - 6), HEIGHT, time(maxX), LEFT + WIDTH, TOP + 10));
        }
        StringBuilder legend = new StringBuilder("<div class=\"legend\">");
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String colour = PALETTE[i % PALETTE.length];
            List<StringBuilder> runs = new ArrayList<>();
            StringBuilder dots = new StringBuilder();
            long last = Long.MIN_VALUE;
            for (AgentMetrics point : s.points()) {
                long at = start(point);
                if (runs.isEmpty() || at - last > WINDOW_MS) {
                    runs.add(new StringBuilder());
                }
                last = at;
                double px = x(at, minX, maxX);
                double v = value.applyAsDouble(point);
                double py = TOP + HEIGHT - v / top * HEIGHT;
                runs.get(runs.size() - 1).append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                boolean open = at + WINDOW_MS > now;
                dots.append(String.format(Locale.ROOT, "<circle class=\"point%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" "
                        + "stroke=\"%s\"><title>%s %s: %s%s</title></circle>", open ? " open" : "", px, py,
                        open ? "#fff" : colour, colour, Html.escape(s.name()), time(at), Html.escape(unit.apply(v)),
                        open ? " (open)" : ""));
            }
            for (StringBuilder run : runs) {
                svg.append("<polyline class=\"series\" data-series=\"").append(Html.escape(s.name()))
                        .append("\" fill=\"none\" stroke-width=\"2\" stroke=\"").append(colour).append("\" points=\"")
                        .append(run.toString().trim()).append("\"/>");
            }
            svg.append(dots);
            legend.append("<span><i class=\"swatch\" style=\"background:").append(colour).append("\"></i>")
                    .append(Html.escape(s.name())).append("</span>");
        }
        return svg.append("</svg>").toString() + legend.append(" <span class=\"muted\">per 1-minute window, UTC</span></div>");
    }

    /**
     * The y axis' ticks: from 0 in round steps (1, 2 or 5 times a power of ten) to the first at or above the largest
     * value, at most 5 steps; 0 and 1 when there is nothing above 0. Where the unit's labels cannot tell two ticks
     * apart, {@code render} takes the next coarser step.
     */
    static List<Double> ticks(double max) {
        return ticks(max, 0);
    }

    /** As {@link #ticks(double)}, with a step of at least {@code minStep}. */
    static List<Double> ticks(double max, double minStep) {
        if (!(max > 0)) {
            return List.of(0.0, 1.0);
        }
        double rough = Math.max(max / 4, minStep);
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        double step = power * (rough <= power ? 1 : rough <= 2 * power ? 2 : rough <= 5 * power ? 5 : 10);
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; ticks.isEmpty() || ticks.get(ticks.size() - 1) < max; i++) {
            // rounded to the step's own digits, so 3 x 0.1 is 0.3, not 0.30000000000000004
            ticks.add(Math.round(i * step / power) * power);
        }
        return ticks;
    }

    /** Whether each tick has a label of its own. */
    private static boolean distinct(List<Double> ticks, DoubleFunction<String> unit) {
        return ticks.stream().map(unit::apply).distinct().count() == ticks.size();
    }

        private static long start(AgentMetrics point) {
        return point.getWindowStart() == null ? 0 : point.getWindowStart();
    }

    private static double x(long at, long minX, long maxX) {
        return maxX == minX ? LEFT + WIDTH / 2 : LEFT + (double) (at - minX) / (maxX - minX) * WIDTH;
    }

    static String time(long epochMillis) {
        return DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(epochMillis));
    }
}

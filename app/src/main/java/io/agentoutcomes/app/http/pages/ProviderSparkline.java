package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.app.http.query.ProviderHistory;
import io.agentoutcomes.app.http.query.ProviderHistory.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.function.ToLongFunction;

/**
 * A provider scope's held and paced retries over its last {@value ProviderHistory#SAMPLES} samples as a small inline
 * SVG: the retries held at each sample (amber) and those released after a hold since the sample before (blue), on one
 * scale from 0, from the oldest sample at the left edge to the latest at the right; a line breaks where a sample is missing, and the paced line
 * starts where there is a sample before to count from. The values drawn are in {@code data-held} and
 * {@code data-paced} ("-" where unknown), the scope's paced count before the first of them in {@code data-paced-before}.
 */
final class ProviderSparkline {
    static final double WIDTH = 150;
    static final double HEIGHT = 32;
    static final String HELD = "#ef6c00";
    static final String PACED = "#1565c0";

    private ProviderSparkline() {
    }

    static String svg(String scope, List<Sample> samples, long intervalMs) {
        if (samples.isEmpty()) {
            return "<span class=\"muted\">no sample yet</span>";
        }
        long last = samples.get(samples.size() - 1).at();
        // across the samples the scope has: a young history fills the width too (its text says over what time)
        long span = last - samples.get(0).at();
        long max = 1;
        for (Sample sample : samples) {
            max = Math.max(max, Math.max(sample.held(), sample.paced()));
        }
        StringJoiner held = new StringJoiner(",");
        StringJoiner paced = new StringJoiner(",");
        samples.forEach(s -> {
            held.add(Long.toString(s.held()));
            paced.add(s.paced() < 0 ? "-" : Long.toString(s.paced()));
        });
        // the scope's count before the first paced value drawn: with the values drawn, its count at the last sample
        Sample first = samples.get(0);
        long before = first.paced() < 0 ? first.pacedTotal() : first.pacedTotal() - first.paced();
        StringBuilder svg = new StringBuilder("<svg class=\"sparkline\" data-scope=\"").append(Html.escape(scope))
                .append("\" data-held=\"").append(held).append("\" data-paced=\"").append(paced)
                .append("\" data-paced-before=\"").append(before)
                .append(String.format(Locale.ROOT, "\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\">",
                        WIDTH, HEIGHT, WIDTH, HEIGHT))
                .append(String.format(Locale.ROOT, "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ccc\"/>",
                        y(0, max), WIDTH, y(0, max)));
        line(svg, "held", HELD, samples, Sample::held, last, span, intervalMs, max);
        line(svg, "paced", PACED, samples, Sample::paced, last, span, intervalMs, max);
        return svg.append("</svg>").toString();
    }

    /** One line of {@code value}, a polyline per run of samples an interval apart (a dot for a run of one). */
    private static void line(StringBuilder svg, String name, String colour, List<Sample> samples, ToLongFunction<Sample> value,
                             long last, long span, long intervalMs, long max) {
        List<StringBuilder> runs = new ArrayList<>();
        long previous = Long.MIN_VALUE;
        for (Sample sample : samples) {
            long v = value.applyAsLong(sample);
            if (v < 0) {
                previous = Long.MIN_VALUE;
                continue;
            }
            // more than half an interval late: a sample went missing between
            if (previous == Long.MIN_VALUE || sample.at() - previous > intervalMs * 3 / 2) {
                runs.add(new StringBuilder());
            }
            previous = sample.at();
            double x = span == 0 ? WIDTH : WIDTH - (double) (last - sample.at()) / span * WIDTH;
            runs.get(runs.size() - 1).append(String.format(Locale.ROOT, "%.1f,%.1f ", Math.max(0, x), y(v, max)));
        }
        for (StringBuilder run : runs) {
            String points = run.toString().trim();
            if (points.contains(" ")) {
                svg.append("<polyline class=\"").append(name).append("\" fill=\"none\" stroke-width=\"1.5\" stroke=\"")
                        .append(colour).append("\" points=\"").append(points).append("\"/>");
            } else {
                String[] xy = points.split(",");
                svg.append("<circle class=\"").append(name).append("\" cx=\"").append(xy[0]).append("\" cy=\"").append(xy[1])
                        .append("\" r=\"1.5\" fill=\"").append(colour).append("\"/>");
            }
        }
    }

    private static double y(long value, long max) {
        return HEIGHT - 2 - (double) value / max * (HEIGHT - 4);
    }

    /** What the line shows in words: retries paced over the samples, and over what time. */
    static String pacedText(List<Sample> samples, long intervalMs) {
        long paced = 0;
        boolean known = false;
        for (Sample sample : samples) {
            if (sample.paced() >= 0) {
                paced += sample.paced();
                known = true;
            }
        }
        if (!known) {
            return "paced: counting from the next sample";
        }
        Sample first = samples.get(0);
        long span = samples.get(samples.size() - 1).at() - first.at() + (first.paced() >= 0 ? intervalMs : 0);
        return Amounts.count(paced) + " paced in " + duration(span);
    }

    /** 45 s, 2 min, 2 min 10 s. */
    static String duration(long millis) {
        long seconds = Math.round(millis / 1000.0);
        if (seconds < 60) {
            return seconds + " s";
        }
        return seconds % 60 == 0 ? seconds / 60 + " min" : seconds / 60 + " min " + seconds % 60 + " s";
    }
}

package io.agentoutcomes.app.http;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeAttempt;
import io.agentoutcomes.avro.NodeReplay;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The HTML pages of seed 001 §6, self-contained (inline CSS, no script, no CDN): a job's timeline with its step list
 * ("Node n1 · permanent_failure"), a detail panel per step, and timeline segments coloured by status (success → ok,
 * retryable → retryable, permanent and compensatable → failed) with a legend; and the list of recent jobs.
 */
public final class TimelinePage {
    /** Seed 001's timeline status of a result type. */
    public enum SegmentStatus {
        OK("ok", "#2e7d32"), RETRYABLE("retryable", "#f9a825"), FAILED("failed", "#c62828");

        private final String label;
        private final String colour;

        SegmentStatus(String label, String colour) {
            this.label = label;
            this.colour = colour;
        }

        public String label() {
            return label;
        }

        public String colour() {
            return colour;
        }

        public static SegmentStatus of(StepResultType type) {
            return switch (type) {
                case SUCCESS -> OK;
                case RETRYABLE_FAILURE -> RETRYABLE;
                case PERMANENT_FAILURE, COMPENSATABLE_FAILURE -> FAILED;
            };
        }
    }

    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1a1a1a;max-width:70rem}
            h1{font-size:1.4rem;margin-bottom:.2rem} .muted{color:#666} a{color:#1565c0}
            .status{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;color:#fff;font-size:.85rem}
            .timeline{display:flex;gap:2px;height:2.2rem;margin:1.2rem 0 .4rem;border-radius:.3rem;overflow:hidden}
            .segment{min-width:2.5rem;color:#fff;font-size:.75rem;display:flex;align-items:center;justify-content:center;white-space:nowrap}
            .legend span{margin-right:1.2rem} .swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:.2rem;vertical-align:middle;margin-right:.3rem}
            ol.steps{padding-left:1.2rem} ol.steps li{margin:.5rem 0}
            details{border:1px solid #ddd;border-radius:.3rem;padding:.4rem .7rem} summary{cursor:pointer;font-weight:600}
            table{border-collapse:collapse;margin-top:.5rem} td,th{border-bottom:1px solid #eee;padding:.25rem .8rem .25rem 0;text-align:left;font-size:.9rem}
            """;

    private TimelinePage() {
    }

    /** The timeline page of one job. */
    public static String job(JobReplayState state) {
        StringBuilder html = head("Job " + state.getJobId());
        html.append("<p><a href=\"/ui/jobs\">All jobs</a></p>");
        html.append("<h1>Job ").append(escape(state.getJobId())).append("</h1>");
        html.append("<p class=\"muted\">Status <span class=\"status\" id=\"job-status\" style=\"background:")
                .append(jobColour(state)).append("\">").append(state.getStatus().name().toLowerCase(Locale.ROOT))
                .append("</span> · completed ").append(state.getCompletedNodeIds().size()).append(" of ")
                .append(state.getNodes().size()).append(" nodes · cursor ")
                .append(state.getCursorNode() == null ? "none" : escape(state.getCursorNode())).append("</p>");

        html.append("<div class=\"timeline\" id=\"timeline\">");
        for (NodeReplay node : state.getNodes()) {
            for (NodeAttempt attempt : node.getAttempts()) {
                SegmentStatus status = SegmentStatus.of(attempt.getResultType());
                long weight = Math.max(1, attempt.getDurationMs() == null ? 1 : attempt.getDurationMs());
                html.append("<div class=\"segment\" data-node=\"").append(escape(node.getNodeId()))
                        .append("\" data-status=\"").append(status.label()).append("\" style=\"flex-grow:").append(weight)
                        .append(";background:").append(status.colour()).append("\" title=\"")
                        .append(escape(node.getNodeId())).append(" attempt ").append(attempt.getAttempt()).append(": ")
                        .append(status.label()).append("\">").append(escape(node.getNodeId())).append("</div>");
            }
        }
        html.append("</div><div class=\"legend\">");
        for (SegmentStatus status : SegmentStatus.values()) {
            html.append("<span data-legend=\"").append(status.label()).append("\"><i class=\"swatch\" style=\"background:")
                    .append(status.colour()).append("\"></i>").append(status.label()).append("</span>");
        }
        html.append("</div>");

        html.append("<h2>Steps</h2><ol class=\"steps\" id=\"steps\">");
        for (NodeReplay node : state.getNodes()) {
            NodeAttempt latest = node.getAttempts().get(node.getAttempts().size() - 1);
            String type = latest.getResultType().name().toLowerCase(Locale.ROOT);
            String stopped = stopLabel(node.getStopReason());
            // A permanent or compensatable failure is final by its type; the pipeline's stop only changes what a
            // retryable one means, so only there it joins the step's title.
            String stoppedTitle = latest.getResultType() == StepResultType.RETRYABLE_FAILURE ? stopped : null;
            html.append("<li class=\"step\" data-node=\"").append(escape(node.getNodeId())).append("\"><details><summary>")
                    .append("Node ").append(escape(node.getNodeId())).append(" · ").append(type)
                    .append(stoppedTitle == null ? "" : " · stopped: " + stoppedTitle).append("</summary>")
                    .append("<table><tr><th>Result type</th><td>").append(type).append("</td></tr>")
                    .append(stopped == null ? "" : "<tr><th>Stopped by the pipeline</th><td class=\"stop-reason\">"
                            + stopped + "</td></tr>")
                    .append("<tr><th>Reason</th><td>").append(latest.getReason() == null ? "—" : escape(latest.getReason()))
                    .append("</td></tr><tr><th>Step index</th><td>")
                    .append(node.getStepIndex() == null ? "—" : node.getStepIndex()).append("</td></tr>")
                    .append("<tr><th>Completed</th><td>").append(node.getCompleted() ? "yes" : "no").append("</td></tr></table>")
                    .append("<table><tr><th>Attempt</th><th>Result type</th><th>Reason</th><th>Duration</th><th>Span</th>")
                    .append("<th>Parent span</th><th>Finished</th><th>Stop</th></tr>");
            for (NodeAttempt attempt : node.getAttempts()) {
                html.append("<tr><td>").append(attempt.getAttempt()).append("</td><td>")
                        .append(attempt.getResultType().name().toLowerCase(Locale.ROOT))
                        .append(attempt.getResultTypeMissing() ? " (no result_type)" : "").append("</td><td>")
                        .append(attempt.getReason() == null ? "—" : escape(attempt.getReason())).append("</td><td>")
                        .append(attempt.getDurationMs() == null ? "—" : attempt.getDurationMs() + " ms").append("</td><td>")
                        .append(orDash(attempt.getTraceSpanId())).append("</td><td>").append(orDash(attempt.getParentSpanId()))
                        .append("</td><td>").append(attempt.getFinishedAtMs() == null ? "—"
                                : Instant.ofEpochMilli(attempt.getFinishedAtMs()).toString()).append("</td><td>")
                        .append(orDash(stopLabel(attempt.getStopReason()))).append("</td></tr>");
            }
            html.append("</table></details></li>");
        }
        html.append("</ol>");
        return html.append("</body></html>").toString();
    }

    /** Seed 002's value of a stop reason ({@code retry_limit}, {@code error}), or null. */
    private static String stopLabel(StopReason stop) {
        return stop == null ? null : stop.name().toLowerCase(Locale.ROOT);
    }

    /** The list of recent jobs. */
    public static String jobs(List<JobReplayState> jobs) {
        StringBuilder html = head("Jobs");
        html.append("<h1>Recent jobs</h1>");
        if (jobs.isEmpty()) {
            return html.append("<p class=\"muted\">No jobs yet: publish node_finished events to see them here.</p></body></html>")
                    .toString();
        }
        html.append("<table id=\"jobs\"><tr><th>Job</th><th>Status</th><th>Completed</th><th>Nodes</th><th>Updated</th></tr>");
        for (JobReplayState job : jobs) {
            html.append("<tr><td><a href=\"/ui/jobs/").append(urlPart(job.getJobId())).append("\">")
                    .append(escape(job.getJobId())).append("</a></td><td><span class=\"status\" style=\"background:")
                    .append(jobColour(job)).append("\">").append(job.getStatus().name().toLowerCase(Locale.ROOT))
                    .append("</span></td><td>").append(job.getCompletedNodeIds().size()).append("</td><td>")
                    .append(job.getNodes().size()).append("</td><td>")
                    .append(job.getUpdatedAt() == null ? "—" : Instant.ofEpochMilli(job.getUpdatedAt()).toString()).append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }

    private static String jobColour(JobReplayState state) {
        return switch (state.getStatus()) {
            case RUNNING -> SegmentStatus.OK.colour();
            case FAILED, COMPENSATION_PENDING -> SegmentStatus.FAILED.colour();
        };
    }

    private static StringBuilder head(String title) {
        return new StringBuilder(4096).append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(title)).append(" · agent-outcomes</title><style>").append(STYLE).append("</style></head><body>");
    }

    private static String orDash(String text) {
        return text == null ? "—" : escape(text);
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static String urlPart(String text) {
        return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }
}

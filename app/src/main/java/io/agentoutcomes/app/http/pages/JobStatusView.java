package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.avro.JobReplayState;

/**
 * A job's status as the pages show it. The replay state's {@code RUNNING} means only that no node failed for good,
 * so a job whose every node has succeeded is shown as completed, not as running. A failed job whose compensation
 * is pending (a compensatable failure fails the job) is shown failed, with a "compensation pending" badge
 * beside it; a state written before that flag existed, with the old status {@code COMPENSATION_PENDING}, is shown
 * the same way.
 */
record JobStatusView(String label, String colour, String title, boolean compensationPending) {
    private static final String RUNNING_COLOUR = "#1565c0";

    static JobStatusView of(JobReplayState job) {
        return switch (job.getStatus()) {
            case RUNNING -> !job.getNodes().isEmpty() && job.getCompletedNodeIds().size() == job.getNodes().size()
                    ? new JobStatusView("completed", SegmentStatus.OK.colour(), "every node it has reported succeeded", false)
                    : new JobStatusView("running", RUNNING_COLOUR, "no node has failed for good; nodes still to succeed", false);
            case FAILED -> job.getCompensationPending()
                    ? new JobStatusView("failed", SegmentStatus.FAILED.colour(),
                            "a node's compensatable failure failed the job; its compensation is pending", true)
                    : new JobStatusView("failed", SegmentStatus.FAILED.colour(), "a node failed for good", false);
            case COMPENSATION_PENDING -> new JobStatusView("failed", SegmentStatus.FAILED.colour(),
                    "a node's compensatable failure failed the job; its compensation is pending", true);
        };
    }

    /** A coloured badge, and a second one when a compensation is pending. */
    String html() {
        return "<span class=\"status\" data-status=\"" + label + "\" title=\"" + Html.escape(title)
                + "\" style=\"background:" + colour + "\">" + label + "</span>" + compensationBadge();
    }

    /** The "compensation pending" badge, in the colour of compensatable segments; empty when none is pending. */
    String compensationBadge() {
        return compensationPending ? " <span class=\"status\" data-status=\"compensation_pending\" title=\""
                + "a node's compensatable failure waits for its compensation\" style=\"background:"
                + SegmentStatus.COMPENSATABLE.colour() + "\">compensation pending</span>" : "";
    }
}

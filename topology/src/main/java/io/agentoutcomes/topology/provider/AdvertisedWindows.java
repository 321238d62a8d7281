package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.topology.ratelimit.WindowLength;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A provider's request windows as they stand when the pipeline reads them, from what the provider said when it answered
 * (the time of the record the result came in, never later than the reading): a window that has reset since says
 * nothing more of what is left, and one still to reset says how long is left from the reading. Without it the results
 * of a downtime, read in the restart's catch-up, were taken as said then: a "none left, resets in 20 s" heard during the
 * downtime held the scope's retries, those due while it was down among them, 20 s from the catch-up (issue 29 item 4).
 */
final class AdvertisedWindows {
    private AdvertisedWindows() {
    }

    /** The windows said at {@code saidAt} as at {@code now}; a window that names no length is {@code defaultWindow} long. */
    static List<RateLimitWindow> asOf(List<RateLimitWindow> windows, long saidAt, long now, Duration defaultWindow) {
        if (saidAt >= now) {
            return windows;
        }
        List<RateLimitWindow> current = new ArrayList<>(windows.size());
        for (RateLimitWindow window : windows) {
            current.add(window.getRemaining() == null ? window : asOf(window, saidAt, now, defaultWindow));
        }
        return current;
    }

    /** As {@link RequestBudgets} reads a window: it resets when it says, and no later than one length after it was said. */
    private static RateLimitWindow asOf(RateLimitWindow window, long saidAt, long now, Duration defaultWindow) {
        long length = WindowLength.millisOf(window).orElse(defaultWindow.toMillis());
        long resetAt = saidAt + length;
        if (window.getResetAtMs() != null) {
            resetAt = Math.min(resetAt, window.getResetAtMs());
        } else if (window.getResetsInMs() != null) {
            resetAt = Math.min(resetAt, saidAt + Math.max(0, window.getResetsInMs()));
        }
        RateLimitWindow.Builder current = RateLimitWindow.newBuilder(window).setResetAtMs(null);
        if (resetAt <= now) {
            return current.setRemaining(null).setResetsInMs(null).build();
        }
        return current.setResetsInMs(resetAt - now).build();
    }
}

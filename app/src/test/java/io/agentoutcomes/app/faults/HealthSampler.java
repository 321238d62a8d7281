package io.agentoutcomes.app.faults;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Polls an instance's {@code /health} every 250 ms in the background and keeps each change of answer, so a scenario
 * can say whether (and for how long) the service left RUNNING during a fault it did not inflict on the service itself.
 */
final class HealthSampler implements AutoCloseable {
    /** An answer and since when it was given. */
    record Change(long atMs, String answer) {
    }

    private final AppInstance app;
    private final List<Change> changes = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    HealthSampler(AppInstance app) {
        this.app = app;
        thread = new Thread(this::sample, "health-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample() {
        String last = null;
        while (running) {
            String answer;
            try {
                HttpResponse<String> response = app.get("/health");
                answer = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                answer = "no answer";
            } catch (InterruptedException e) {
                return;
            }
            if (!answer.equals(last)) {
                synchronized (changes) {
                    changes.add(new Change(System.currentTimeMillis(), answer));
                }
                last = answer;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    List<Change> changes() {
        synchronized (changes) {
            return List.copyOf(changes);
        }
    }

    /**
     * Waits until /health has answered 200, and nothing else, for {@code steadyFor}; the wait's length in ms. A fresh
     * application can rebalance once more right after its first RUNNING (its consumers see the internal topics the
     * assignment created only at their next metadata refresh) and move a task between its stream threads, which then
     * restores it for a moment: that is the start, not what a scenario does after it.
     */
    long awaitSteady(Duration steadyFor, Duration max) throws InterruptedException {
        long start = System.currentTimeMillis();
        while (System.currentTimeMillis() - start < max.toMillis()) {
            List<Change> seen = changes();
            if (!seen.isEmpty()) {
                Change last = seen.get(seen.size() - 1);
                if (last.answer().startsWith("200") && System.currentTimeMillis() - last.atMs() >= steadyFor.toMillis()) {
                    return System.currentTimeMillis() - start;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("/health not steady at 200 for " + steadyFor + " within " + max + ": " + changes());
    }

    /**
     * When /health last turned 200 from another answer after {@code sinceMs}, as ms after it; 0 if it never left 200
     * since (a 200 that only names another state, RUNNING after REBALANCING, is not a return).
     */
    long msUntilHealthyAfter(long sinceMs) {
        long back = 0;
        boolean healthy = true;
        for (Change change : changes()) {
            boolean now = change.answer().startsWith("200");
            if (change.atMs() > sinceMs && now && !healthy) {
                back = change.atMs() - sinceMs;
            }
            healthy = now;
        }
        return back;
    }

    /** Every answer other than 200 since {@code sinceMs}, with how long after it began. */
    List<String> notHealthySince(long sinceMs) {
        List<String> seen = new ArrayList<>();
        for (Change change : changes()) {
            if (change.atMs() >= sinceMs && !change.answer().startsWith("200")) {
                seen.add(String.format("+%.1f s %s", (change.atMs() - sinceMs) / 1000.0, change.answer()));
            }
        }
        return seen;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

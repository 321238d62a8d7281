package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Polls an instance's {@code /providers} every 250 ms in the background and keeps, per sample, the scopes
 * ({@code provider/model}) whose retry budget alone held their retries then ({@code budgetExhaustedSince} set), so a
 * scenario can tell a retry the budget held on purpose from one a restart made late (issue 33).
 */
final class RetryBudgetSampler implements AutoCloseable {
    /** One answer: when, and the scopes held by their retry budget. */
    record Sample(long atMs, List<String> exhausted) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final AppInstance app;
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    RetryBudgetSampler(AppInstance app) {
        this.app = app;
        thread = new Thread(this::sample, "retry-budget-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample() {
        while (running) {
            try {
                HttpResponse<String> response = app.get("/providers");
                if (response.statusCode() == 200) {
                    List<String> exhausted = new ArrayList<>();
                    for (JsonNode scope : JSON.readTree(response.body()).path("providers")) {
                        if (scope.path("budgetExhaustedSince").asLong() > 0) {
                            exhausted.add(scope.path("provider").asText() + "/" + scope.path("model").asText());
                        }
                    }
                    synchronized (samples) {
                        samples.add(new Sample(System.currentTimeMillis(), exhausted));
                    }
                }
            } catch (IOException e) {
                // down or restarting: no sample
            } catch (InterruptedException e) {
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Whether a sample in {@code [fromMs, toMs]} saw {@code scope} held by its retry budget. */
    boolean exhausted(String scope, long fromMs, long toMs) {
        synchronized (samples) {
            return samples.stream().anyMatch(s -> s.atMs() >= fromMs && s.atMs() <= toMs && s.exhausted().contains(scope));
        }
    }

    int samples() {
        synchronized (samples) {
            return samples.size();
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}

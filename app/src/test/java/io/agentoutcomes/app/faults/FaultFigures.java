package io.agentoutcomes.app.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one scenario (records, faults, recovery times, run time), printed at its end so they show in the
 * Maven log, and appended to {@code app/target/fault-figures.txt}, whether its assertions pass or not.
 */
final class FaultFigures {
    private final String scenario;
    private final long startNanos = System.nanoTime();
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final List<String> faults = new ArrayList<>();

    FaultFigures(String scenario) {
        this.scenario = scenario;
    }

    void put(String name, Object value) {
        figures.put(name, value);
    }

    void putAll(Map<String, Object> more) {
        figures.putAll(more);
    }

    /**
     * One fault and how long until the service was healthy again and produced its next outcome, and until every
     * partition produced again.
     *
     * @param down how long the killed process stayed down; null when it was not restarted
     */
    void fault(String what, Duration down, Duration toHealthy, long msToNextOutcome, long msToEveryPartition) {
        faults.add(String.format("%s: %s, /health 200 %s, next outcome after %s, every partition producing after %s",
                what, down == null ? "not restarted" : String.format("down %.1f s", down.toMillis() / 1000.0),
                toHealthy.isZero() ? "throughout" : String.format("after %.1f s", toHealthy.toMillis() / 1000.0),
                seconds(msToNextOutcome), seconds(msToEveryPartition)));
    }

    private static String seconds(long ms) {
        return ms < 0 ? "(never)" : String.format("%.1f s", ms / 1000.0);
    }

    /** Prints the block and appends it to the figures file. */
    void report(String outcome) {
        StringBuilder text = new StringBuilder();
        text.append("==== fault figures: ").append(scenario).append(" (").append(Instant.now()).append(") ====\n");
        figures.forEach((name, value) -> text.append("  ").append(name).append(": ").append(value).append('\n'));
        text.append("  faults: ").append(faults.size()).append('\n');
        faults.forEach(fault -> text.append("    ").append(fault).append('\n'));
        text.append(String.format("  run time: %.1f s%n", (System.nanoTime() - startNanos) / 1e9));
        text.append("  result: ").append(outcome).append('\n');
        System.out.print(text);
        System.out.flush();
        Path file = Path.of(System.getProperty("fault.figures", "target/fault-figures.txt"));
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("could not write " + file + ": " + e);
        }
    }
}

package io.agentoutcomes.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a process's CPU time went between two snapshots, by group of threads: Java threads by their full names (the
 * application's stream threads, its producers' I/O threads, the broker, ...), and the JVM's own threads, which Java
 * does not list, by their Linux names from {@code /proc/self/task} (JIT compilers, garbage collectors, RocksDB's
 * background threads). Whatever is left of the process's CPU time is "other".
 */
final class CpuBreakdown {
    static final String JIT = "JIT compiler";
    static final String GC = "garbage collector";
    static final String ROCKSDB = "RocksDB background";
    static final String JVM = "JVM other";
    static final String OTHER = "other";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long CLOCK_TICK_NANOS = 10_000_000L; // USER_HZ is 100 on Linux
    private static final Pattern JIT_THREADS = Pattern.compile("C[12] CompilerThre.*|Sweeper thread");
    private static final Pattern GC_THREADS = Pattern.compile("GC Thread.*|G1 .*|GC .*");
    private static final Pattern ROCKSDB_THREADS = Pattern.compile("rocksdb:.*");
    /** Only threads Java does not list (Reference Handler, Finalizer and the like are Java threads, counted as such). */
    private static final Pattern JVM_THREADS = Pattern.compile("VM .*|Service Thread|Monitor Deflat.*|JFR Recorder.*");

    /** CPU nanoseconds by group at one moment. */
    record Snapshot(long processNanos, Map<String, Long> byGroup) {
    }

    private CpuBreakdown() {
    }

    /** The CPU time so far, Java threads grouped by {@code javaGroup} of their names, the JVM's own by kind. */
    static Snapshot take(Function<String, String> javaGroup) {
        Map<String, Long> groups = new HashMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            long cpu = THREADS.getThreadCpuTime(thread.getId());
            if (cpu > 0) {
                groups.merge(javaGroup.apply(thread.getName()), cpu, Long::sum);
            }
        }
        nativeThreads().forEach((group, cpu) -> groups.merge(group, cpu, Long::sum));
        return new Snapshot(Measures.processCpuNanos(), groups);
    }

    /** Per group, the CPU time between two snapshots, and "other" for what no group accounts for; largest first. */
    static Map<String, Long> between(Snapshot before, Snapshot after) {
        Map<String, Long> delta = new HashMap<>();
        after.byGroup().forEach((group, cpu) -> {
            long used = cpu - before.byGroup().getOrDefault(group, 0L);
            if (used > 0) {
                delta.put(group, used);
            }
        });
        long accounted = delta.values().stream().mapToLong(Long::longValue).sum();
        long rest = after.processNanos() - before.processNanos() - accounted;
        if (rest > 0) {
            delta.merge(OTHER, rest, Long::sum);
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        delta.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** The JVM's own threads (not visible to Java), by kind; empty where there is no /proc. */
    private static Map<String, Long> nativeThreads() {
        Map<String, Long> groups = new HashMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return groups;
        }
        try (Stream<Path> list = Files.list(tasks)) {
            list.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String group = JIT_THREADS.matcher(name).matches() ? JIT
                            : GC_THREADS.matcher(name).matches() ? GC
                            : ROCKSDB_THREADS.matcher(name).matches() ? ROCKSDB
                            : JVM_THREADS.matcher(name).matches() ? JVM : null;
                    if (group != null) {
                        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                        groups.merge(group, ticks * CLOCK_TICK_NANOS, Long::sum);
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException e) {
            return groups;
        }
        return groups;
    }
}

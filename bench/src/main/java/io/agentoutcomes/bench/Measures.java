package io.agentoutcomes.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** What a round costs the process: CPU time, heap, and the CPU time of the threads whose name has a given part. */
final class Measures {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Measures() {
    }

    /** CPU time of the whole process so far, in nanoseconds (all threads: broker, registry, clients, streams). */
    static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** Starts a new peak for {@link #peakHeapBytes}. */
    static void resetPeakHeap() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** The sum of the heap pools' peaks since the last reset (an upper bound of the heap in use at any moment). */
    static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    static long heapUsedBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Heap in use after a full collection: what is really kept. */
    static long heapLiveBytes() {
        System.gc();
        return heapUsedBytes();
    }

    /** Summed CPU time of the live threads whose name passes {@code names}. */
    static long threadCpuNanos(Predicate<String> names) {
        long sum = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (names.test(thread.getName())) {
                long cpu = THREADS.getThreadCpuTime(thread.getId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }

    /** The median and range of some values, as "median (min–max)". */
    static String medianRange(List<Double> values, String format) {
        if (values.isEmpty()) {
            return "-";
        }
        return String.format(Locale.ROOT, format + " (" + format + "–" + format + ")", median(values),
                values.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                values.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static List<Double> ratios(List<Double> numerators, List<Double> denominators) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(numerators.size(), denominators.size()); i++) {
            ratios.add(numerators.get(i) / denominators.get(i));
        }
        return ratios;
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }
}

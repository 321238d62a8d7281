package io.agentoutcomes.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JDK Flight Recorder profile of this JVM, and its summary: the hottest frames of chosen threads. The summary is
 * what {@code jfr print --events jdk.ExecutionSample FILE} shows, counted: execution samples are taken of threads
 * running Java code only, so a thread's share of them is its share of CPU; frames are counted on top of the stack
 * (self) and anywhere in it (inclusive, within the recorded stack depth: start the JVM with
 * {@code -XX:FlightRecorderOptions:stackdepth=256} for deep Kafka Streams stacks).
 */
final class JfrProfile implements AutoCloseable {
    /** Sampling period of the Java execution samples. */
    static final Duration PERIOD = Duration.ofMillis(5);
    /** Parks shorter than this are not recorded (JFR's own default is 10 ms in its profile settings). */
    static final Duration PARK_THRESHOLD = Duration.ofMillis(1);

    /** Where time goes, by what a stack contains (inclusive): the areas issue 12 names, and their neighbours. */
    private static final Map<String, Predicate<String>> AREAS = new LinkedHashMap<>();

    static {
        AREAS.put("Avro encode (SpecificDatumWriter / serializer)", f -> f.startsWith("org.apache.avro.generic.GenericDatumWriter.")
                || f.startsWith("org.apache.avro.specific.SpecificDatumWriter."));
        AREAS.put("Avro decode (SpecificDatumReader / deserializer)", f -> f.startsWith("org.apache.avro.generic.GenericDatumReader.")
                || f.startsWith("org.apache.avro.specific.SpecificDatumReader."));
        AREAS.put("Avro builders / deep copies (newBuilder, SpecificData.deepCopy)", f -> f.contains(".newBuilder")
                || f.startsWith("org.apache.avro.generic.GenericData.deepCopy") || f.contains("$Builder.build"));
        AREAS.put("String.format / java.util.Formatter", f -> f.startsWith("java.util.Formatter.")
                || f.equals("java.lang.String.format"));
        AREAS.put("RocksDB (JNI calls, org.rocksdb)", f -> f.startsWith("org.rocksdb."));
        AREAS.put("state stores (o.a.k.streams.state.internals)", f -> f.startsWith("org.apache.kafka.streams.state.internals."));
        AREAS.put("changelog / sink writes (RecordCollectorImpl.send)", f -> f.startsWith(
                "org.apache.kafka.streams.processor.internals.RecordCollectorImpl.send"));
        AREAS.put("producer send (KafkaProducer.send)", f -> f.startsWith("org.apache.kafka.clients.producer.KafkaProducer.send")
                || f.startsWith("org.apache.kafka.clients.producer.KafkaProducer.doSend"));
        AREAS.put("commit / transactions (TaskManager.commit, StreamsProducer.commit)", f -> f.startsWith(
                "org.apache.kafka.streams.processor.internals.TaskManager.commit")
                || f.startsWith("org.apache.kafka.streams.processor.internals.StreamsProducer.commit"));
        AREAS.put("consumer poll (KafkaConsumer / ClassicKafkaConsumer poll)", f -> f.startsWith("org.apache.kafka.clients.consumer.")
                && f.endsWith(".poll"));
        AREAS.put("Kafka metrics (Sensor.record)", f -> f.startsWith("org.apache.kafka.common.metrics.Sensor.record"));
        AREAS.put("JSON parsing (Jackson)", f -> f.startsWith("com.fasterxml.jackson."));
        AREAS.put("BigDecimal", f -> f.startsWith("java.math.BigDecimal."));
        AREAS.put("project code (io.agentoutcomes)", f -> f.startsWith("io.agentoutcomes."));
        AREAS.put("  classification (Classification.classify)", f -> f.startsWith("io.agentoutcomes.topology.classify.Classification.classify"));
        AREAS.put("  analytics (io.agentoutcomes.topology.analytics)", f -> f.startsWith("io.agentoutcomes.topology.analytics."));
        AREAS.put("  replay (io.agentoutcomes.topology.replay)", f -> f.startsWith("io.agentoutcomes.topology.replay."));
        AREAS.put("  ingest (io.agentoutcomes.topology.ingest)", f -> f.startsWith("io.agentoutcomes.topology.ingest."));
    }

    private final Recording recording;
    private final Path file;

    private JfrProfile(Recording recording, Path file) {
        this.recording = recording;
        this.file = file;
    }

    /** Starts recording (JFR's "profile" settings, Java samples every {@link #PERIOD}); {@link #close} writes {@code file}. */
    static JfrProfile start(Path file) throws IOException {
        Configuration profile;
        try {
            profile = Configuration.getConfiguration("profile");
        } catch (ParseException e) {
            throw new IOException("JFR's profile settings: " + e.getMessage(), e);
        }
        Recording recording = new Recording(profile);
        recording.enable("jdk.ExecutionSample").withPeriod(PERIOD);
        recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(20));
        recording.enable("jdk.ThreadPark").withThreshold(PARK_THRESHOLD).withStackTrace();
        recording.setName("agent-outcomes-bench");
        recording.start();
        return new JfrProfile(recording, file);
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        recording.stop();
        recording.dump(file);
        recording.close();
    }

    /** Counts of one kind of sample, by frame. */
    static final class Counts {
        long samples;
        final Map<String, Long> self = new HashMap<>();
        final Map<String, Long> inclusive = new HashMap<>();
        final Map<String, Long> areas = new LinkedHashMap<>();

        void add(List<RecordedFrame> frames) {
            samples++;
            if (frames.isEmpty()) {
                return;
            }
            self.merge(name(frames.get(0)), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String name = name(frame);
                if (seen.add(name)) {
                    inclusive.merge(name, 1L, Long::sum);
                }
            }
            AREAS.forEach((area, test) -> {
                if (seen.stream().anyMatch(test)) {
                    areas.merge(area, 1L, Long::sum);
                }
            });
        }
    }

    /** The counts of a recording: Java and native samples of the chosen threads, and Java samples per thread name. */
    record Summary(Counts java, Counts nativeSamples, Map<String, Long> javaByThread, long javaAll,
                   Map<String, Duration> parked) {
    }

    static Summary summarize(Path file, Predicate<String> threads) throws IOException {
        Counts java = new Counts();
        Counts natives = new Counts();
        Map<String, Long> byThread = new HashMap<>();
        Map<String, Duration> parked = new HashMap<>();
        long all = 0;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                String type = event.getEventType().getName();
                if (type.equals("jdk.ThreadPark") || type.equals("jdk.JavaMonitorWait")) {
                    RecordedThread thread = event.getThread();
                    if (thread != null && thread.getJavaName() != null && threads.test(thread.getJavaName())
                            && event.getStackTrace() != null) {
                        parked.merge(waitingIn(event.getStackTrace().getFrames()), event.getDuration(), Duration::plus);
                    }
                    continue;
                }
                boolean javaSample = type.equals("jdk.ExecutionSample");
                if (!javaSample && !type.equals("jdk.NativeMethodSample")) {
                    continue;
                }
                RecordedThread thread = event.getThread("sampledThread");
                String name = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
                if (javaSample) {
                    all++;
                    byThread.merge(threadGroup(name), 1L, Long::sum);
                }
                if (threads.test(name) && event.getStackTrace() != null) {
                    (javaSample ? java : natives).add(event.getStackTrace().getFrames());
                }
            }
        }
        return new Summary(java, natives, byThread, all, parked);
    }

    /** A thread's name with the parts that differ between runs (ids, numbers) left out, so threads of a kind count together. */
    static String threadGroup(String name) {
        return name.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                .replaceAll("-r\\d+-", "-r#-").replaceAll("\\d+", "#");
    }

    /** What a parked thread waits for: the first frame of Kafka's or the project's code, with the caller above it. */
    static String waitingIn(List<RecordedFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            String name = name(frames.get(i));
            if (name.startsWith("org.apache.kafka.") || name.startsWith("io.agentoutcomes.")) {
                for (int j = i + 1; j < frames.size(); j++) {
                    String caller = name(frames.get(j));
                    if (caller.startsWith("org.apache.kafka.streams.") && !caller.startsWith("org.apache.kafka.streams.processor.internals.StreamThread.run")) {
                        return name + " <- " + caller;
                    }
                }
                return name;
            }
        }
        return frames.isEmpty() ? "?" : name(frames.get(0));
    }

    static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    /** Prints the summary: the top {@code top} frames of the chosen threads, self and inclusive, and the areas. */
    static void print(Summary summary, String what, int top, PrintStream out) {
        Counts java = summary.java();
        out.printf(Locale.ROOT, "Java execution samples (every %d ms) of %s: %,d of %,d samples of all threads%n",
                PERIOD.toMillis(), what, java.samples, summary.javaAll());
        if (java.samples == 0) {
            return;
        }
        out.println("  threads with the most samples (all threads):");
        summary.javaByThread().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                .forEach(e -> out.printf(Locale.ROOT, "    %5.1f%%  %s%n", 100.0 * e.getValue() / summary.javaAll(), e.getKey()));
        out.printf("  top %d frames, self (where the CPU was):%n", top);
        printTop(java.self, java.samples, top, out);
        out.printf("  top %d frames, inclusive (on the stack):%n", top);
        printTop(java.inclusive, java.samples, top, out);
        out.println("  by area, inclusive (a sample may count in several):");
        AREAS.keySet().forEach(area -> out.printf(Locale.ROOT, "    %5.1f%%  %s%n",
                100.0 * java.areas.getOrDefault(area, 0L) / java.samples, area));
        if (!summary.parked().isEmpty()) {
            out.printf(Locale.ROOT, "  time %s spent parked (JFR ThreadPark of %d ms or more, MonitorWait), by where it waited:%n",
                    what, PARK_THRESHOLD.toMillis());
            summary.parked().entrySet().stream().sorted(Map.Entry.<String, Duration>comparingByValue().reversed()).limit(8)
                    .forEach(e -> out.printf(Locale.ROOT, "    %8.1f s  %s%n", e.getValue().toMillis() / 1000.0, e.getKey()));
        }
        Counts natives = summary.nativeSamples();
        if (natives.samples > 0) {
            out.printf(Locale.ROOT, "  native-method samples of %s (in JNI or blocked in the OS, e.g. RocksDB, epoll): %,d; top 8 self:%n",
                    what, natives.samples);
            printTop(natives.self, natives.samples, 8, out);
        }
    }

    private static void printTop(Map<String, Long> counts, long samples, int top, PrintStream out) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .forEach(e -> out.printf(Locale.ROOT, "    %5.1f%%  %6d  %s%n", 100.0 * e.getValue() / samples, e.getValue(),
                        e.getKey()));
    }
}

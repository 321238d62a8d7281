package io.agentoutcomes.app.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a stop that was not clean (SIGKILL, a crash, a lost machine), exactly-once Kafka Streams cannot trust a
 * persistent store it finds on disk: it may hold writes of a transaction that was aborted. Kafka Streams then wipes
 * each such task's state, but by way of a task-corruption error at start-up: the task is closed dirty, revived, its
 * input paused and its offsets reset, and a second rebalance is forced ("Active task(s) got corrupted. Triggering a
 * rebalance"), which readiness then waits out (issue 29: every stateful task, at every restart after a SIGKILL).
 * Removing those task directories before Kafka Streams starts costs the same restore, without that path. A standby
 * task's directory goes too, so after an unclean stop its state is restored in full.
 * <p>
 * A clean stop is recorded by a marker file in the data directory, written once Kafka Streams has closed cleanly and
 * removed at each start; without it, the last run did not end cleanly. Only task directories go: the process
 * metadata (Kafka Streams' process id, hence its transactional ids) stays, so the restarted producers fence the dead
 * ones and abort their open transactions at once.
 */
public final class UncleanStop {
    private static final Logger LOG = LoggerFactory.getLogger(UncleanStop.class);
    /** The marker of a clean stop, in the data directory. */
    static final String MARKER = "streams-stopped-cleanly";
    /** Kafka Streams' task directories: {@code <subtopology>_<partition>}. */
    private static final Pattern TASK_DIRECTORY = Pattern.compile("\\d+_\\d+");
    /** The file Kafka Streams locks in its directory of the application while it runs. */
    private static final String LOCK_FILE = ".lock";

    private UncleanStop() {
    }

    /** {@link #prepare(Path, Path, boolean)} for the service's Kafka Streams settings, with a line in the log. */
    public static void prepare(Path dataDir, Properties streams) {
        Path stateDir = Path.of(streams.getProperty(StreamsConfig.STATE_DIR_CONFIG))
                .resolve(streams.getProperty(StreamsConfig.APPLICATION_ID_CONFIG));
        List<String> removed = prepare(dataDir, stateDir,
                StreamsConfig.EXACTLY_ONCE_V2.equals(streams.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)));
        if (!removed.isEmpty()) {
            LOG.info("The last run did not stop cleanly: the local state of tasks {} is restored from the changelogs "
                    + "(with exactly-once it may hold aborted writes)", removed);
        }
    }

    /**
     * At start, before Kafka Streams: when the last run did not stop cleanly and the guarantee is exactly-once, removes
     * the task directories under {@code stateDir} (Kafka Streams' directory of the application); then removes the
     * marker, so a run that does not stop cleanly leaves none. Returns the task directories removed.
     */
    public static List<String> prepare(Path dataDir, Path stateDir, boolean exactlyOnce) {
        Path marker = dataDir.resolve(MARKER);
        try {
            boolean clean = Files.deleteIfExists(marker);
            if (clean || !exactlyOnce || !Files.isDirectory(stateDir)) {
                return List.of();
            }
            // Kafka Streams' own lock on the directory: held by another process, this data directory is in use (that
            // process's Kafka Streams keeps its state, and this one's will refuse to start).
            try (FileChannel channel = FileChannel.open(stateDir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = tryLock(channel)) {
                if (lock == null) {
                    return List.of();
                }
                List<Path> tasks;
                try (Stream<Path> entries = Files.list(stateDir)) {
                    tasks = entries.filter(Files::isDirectory)
                            .filter(dir -> TASK_DIRECTORY.matcher(dir.getFileName().toString()).matches()).sorted().toList();
                }
                for (Path task : tasks) {
                    deleteTree(task);
                }
                return tasks.stream().map(task -> task.getFileName().toString()).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the state directory " + stateDir + " after an unclean stop", e);
        }
    }

    /** Records a clean stop: Kafka Streams closed and its stores are consistent with what it committed. */
    public static void markClean(Path dataDir) {
        try {
            Files.writeString(dataDir.resolve(MARKER), "Kafka Streams closed cleanly\n");
        } catch (IOException e) {
            throw new UncheckedIOException("could not record the clean stop in " + dataDir, e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}

package io.agentoutcomes.app.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UncleanStopTest {
    @TempDir
    Path dataDir;

    private Path stateDir() throws IOException {
        Path app = dataDir.resolve("streams").resolve("agent-outcomes");
        Files.createDirectories(app.resolve("4_0").resolve("rocksdb").resolve("retry-pending"));
        Files.writeString(app.resolve("4_0").resolve("rocksdb").resolve("retry-pending").resolve("000001.sst"), "data");
        Files.createDirectories(app.resolve("0_1"));
        Files.writeString(app.resolve("kafka-streams-process-metadata"), "{\"processId\":\"p\"}");
        return app;
    }

    @Test
    void afterAnUncleanStopWithExactlyOnceTheTaskDirectoriesGoAndTheProcessIdStays() throws IOException {
        Path app = stateDir();

        assertThat(UncleanStop.prepare(dataDir, app, true)).containsExactly("0_1", "4_0");

        assertThat(app.resolve("4_0")).doesNotExist();
        assertThat(app.resolve("0_1")).doesNotExist();
        assertThat(app.resolve("kafka-streams-process-metadata")).hasContent("{\"processId\":\"p\"}");
    }

    @Test
    void afterACleanStopTheStateStaysAndTheMarkerIsConsumed() throws IOException {
        Path app = stateDir();
        UncleanStop.markClean(dataDir);

        assertThat(UncleanStop.prepare(dataDir, app, true)).isEmpty();

        assertThat(app.resolve("4_0").resolve("rocksdb").resolve("retry-pending").resolve("000001.sst")).hasContent("data");
        assertThat(dataDir.resolve(UncleanStop.MARKER)).doesNotExist();
        // the run that starts now has not stopped cleanly yet: killed, it leaves no marker
        assertThat(UncleanStop.prepare(dataDir, app, true)).containsExactly("0_1", "4_0");
    }

    @Test
    void aDirectoryAnotherProcessLocksIsLeftAlone() throws IOException {
        Path app = stateDir();
        try (FileChannel channel = FileChannel.open(app.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock held = channel.lock()) {
            assertThat(UncleanStop.prepare(dataDir, app, true)).isEmpty();
        }

        assertThat(app.resolve("4_0").resolve("rocksdb").resolve("retry-pending").resolve("000001.sst")).hasContent("data");
    }

    @Test
    void withoutExactlyOnceTheStateStays() throws IOException {
        Path app = stateDir();

        assertThat(UncleanStop.prepare(dataDir, app, false)).isEmpty();

        assertThat(app.resolve("4_0").resolve("rocksdb").resolve("retry-pending").resolve("000001.sst")).hasContent("data");
    }

    @Test
    void aFirstStartFindsNothingToRemove() {
        assertThat(UncleanStop.prepare(dataDir, dataDir.resolve("streams").resolve("agent-outcomes"), true)).isEmpty();
    }
}

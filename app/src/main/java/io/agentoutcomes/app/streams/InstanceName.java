package io.agentoutcomes.app.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * This instance's stable name, the {@code group.instance.id} of its stream threads (Kafka's static membership): made at
 * the first start (host name and a random suffix) and kept in {@code <data.dir>/instance-name}, so an instance
 * restarted on the same data directory — a process restarted by its supervisor, a StatefulSet's pod on its volume —
 * is the same member and takes its partitions back at once, instead of joining as a new member and waiting out its
 * dead self's session. Two instances never share a data directory (Kafka Streams locks its state), so they never share
 * a name.
 */
public final class InstanceName {
    static final String FILE = "instance-name";
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private InstanceName() {
    }

    /** The name kept in {@code dataDir}, made and kept there if there is none. */
    public static String of(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                String name = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (!VALID.matcher(name).matches()) {
                    throw new IllegalStateException(file + " holds no valid instance name ('" + name + "'): delete "
                            + "the file to have a new one made, or set group.instance.id");
                }
                return name;
            }
            String name = host() + "-" + UUID.randomUUID().toString().substring(0, 8);
            Files.createDirectories(dataDir);
            Path written = Files.writeString(Files.createTempFile(dataDir, FILE, ".tmp"), name + "\n", StandardCharsets.UTF_8);
            Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep this instance's name in " + file + ": " + e.getMessage(), e);
        }
    }

    private static String host() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "instance";
        }
        String cleaned = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        return cleaned.length() > 60 ? cleaned.substring(0, 60) : cleaned;
    }
}

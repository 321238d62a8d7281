package io.agentoutcomes.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made in a test with the JDK's own {@code keytool}, as an operator makes one: its certificate
 * in a trust store, and PKCS12 keystores whose key it signed (a server's for {@code localhost}, a client's).
 *
 * @param dir      where the files are
 * @param name     the CA's name, which its files start with
 * @param password the password of every store and key
 */
public record TestCa(Path dir, String name, String password) {
    private static final String CA_ALIAS = "test-ca";

    /** A new CA in {@code dir}, named {@code name} (two CAs in one directory need two names). */
    public static TestCa create(Path dir, String name) throws IOException, InterruptedException {
        String password = "ca-pa55-" + Long.toHexString(System.nanoTime());
        Path ca = dir.resolve(name + "-ca.p12");
        keytool(null, "-genkeypair", "-alias", CA_ALIAS, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-ext", "bc:c", "-validity", "2", "-storetype", "PKCS12", "-keystore", ca.toString(),
                "-storepass", password, "-keypass", password);
        Path pem = dir.resolve(name + "-ca.pem");
        keytool(null, "-exportcert", "-rfc", "-alias", CA_ALIAS, "-keystore", ca.toString(), "-storepass", password,
                "-file", pem.toString());
        Path truststore = dir.resolve(name + "-truststore.p12");
        keytool(null, "-importcert", "-noprompt", "-alias", CA_ALIAS, "-file", pem.toString(), "-storetype", "PKCS12",
                "-keystore", truststore.toString(), "-storepass", password);
        return new TestCa(dir, name, password);
    }

    /** The CA's certificate, the trust store of servers and clients. */
    public Path truststore() {
        return dir.resolve(name + "-truststore.p12");
    }

    /** A keystore with a key for {@code commonName} (and, for a server, the names localhost and 127.0.0.1) signed by this CA. */
    public Path issue(String commonName, boolean server) throws IOException, InterruptedException {
        Path ca = dir.resolve(name + "-ca.p12");
        Path keystore = dir.resolve(commonName + "-" + System.nanoTime() + ".p12");
        List<String> genkey = new ArrayList<>(List.of("-genkeypair", "-alias", "key", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=" + commonName, "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", password, "-keypass", password));
        keytool(null, genkey.toArray(String[]::new));
        String request = keytool(null, "-certreq", "-alias", "key", "-keystore", keystore.toString(), "-storepass", password);
        List<String> sign = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", CA_ALIAS, "-keystore", ca.toString(),
                "-storepass", password, "-validity", "2"));
        if (server) {
            sign.addAll(List.of("-ext", "SAN=dns:localhost,ip:127.0.0.1"));
        }
        String signed = keytool(request, sign.toArray(String[]::new));
        String caPem = Files.readString(dir.resolve(name + "-ca.pem"));
        Path chain = dir.resolve(commonName + "-" + System.nanoTime() + "-chain.pem");
        Files.writeString(chain, signed.trim() + "\n" + caPem);
        keytool(null, "-importcert", "-noprompt", "-alias", "key", "-file", chain.toString(), "-keystore", keystore.toString(),
                "-storepass", password);
        return keystore;
    }

    private static String keytool(String input, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process keytool = new ProcessBuilder(command).redirectErrorStream(false).start();
        if (input != null) {
            keytool.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        }
        keytool.getOutputStream().close();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(keytool.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + output + errors);
        }
        return output;
    }
}

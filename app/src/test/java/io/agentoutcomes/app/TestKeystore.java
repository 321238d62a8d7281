package io.agentoutcomes.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1} in a PKCS12 keystore, made by the JDK's own
 * {@code keytool} as an operator would make one; the same file serves as the trust store of the clients.
 *
 * @param file     the keystore
 * @param password its password (and the key's)
 */
public record TestKeystore(Path file, String password) {

    /** A new keystore in {@code dir}. */
    public static TestKeystore create(Path dir) throws IOException, InterruptedException {
        Path file = dir.resolve("http-" + System.nanoTime() + ".p12");
        String password = "keyst0re-pa55-" + Long.toHexString(System.nanoTime());
        Process keytool = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "agent-outcomes", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", password, "-keypass", password))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0 || !Files.exists(file)) {
            throw new IllegalStateException("keytool did not make a keystore: " + output);
        }
        return new TestKeystore(file, password);
    }

    /** The settings of a server with this keystore whose own clients trust it too. */
    public Map<String, String> serverSettings() {
        return Map.of("http.tls.keystore.location", file.toString(), "http.tls.keystore.password", password,
                "http.tls.truststore.location", file.toString(), "http.tls.truststore.password", password);
    }

    /** A client context that trusts this certificate. */
    public SSLContext trustingContext() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}

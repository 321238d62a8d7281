package io.agentoutcomes.avro.registry;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * What a registry client trusts over HTTPS and the certificate it presents, from {@code schema.registry.ssl.truststore.*},
 * {@code schema.registry.ssl.keystore.*} and {@code schema.registry.ssl.key.password} as Confluent's clients name them.
 * No trust store: the JVM's default; no keystore: no client certificate.
 *
 * @param trustStore  the certificates trusted (and only those)
 * @param keyStore    the client's private key and certificate, presented when the registry asks for one
 * @param keyPassword the private key's password; empty: the keystore's
 */
public record RegistryTls(Optional<StoreFile> trustStore, Optional<StoreFile> keyStore, Optional<String> keyPassword) {

    /** Whether anything differs from the JVM's defaults. */
    public boolean configured() {
        return trustStore.isPresent() || keyStore.isPresent();
    }

    /** An SSL context with these stores; the JVM's default trust when no trust store is given. */
    public SSLContext sslContext() {
        Optional<StoreFile> reading = trustStore;
        try {
            TrustManagerFactory trust = null;
            if (trustStore.isPresent()) {
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(trustStore.get().load());
            }
            KeyManagerFactory keys = null;
            reading = keyStore;
            if (keyStore.isPresent()) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(keyStore.get().load(), keyPassword.or(() -> keyStore.get().password())
                        .map(String::toCharArray).orElse(new char[0]));
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot read the " + (reading == keyStore ? "keystore " : "trust store ")
                    + reading.map(StoreFile::toString).orElse("") + ": " + e.getMessage(), e);
        }
    }

    /** Never shows a password. */
    @Override
    public String toString() {
        return "RegistryTls[trust=" + trustStore.map(StoreFile::toString).orElse("default")
                + ", key=" + keyStore.map(StoreFile::toString).orElse("none") + "]";
    }
}

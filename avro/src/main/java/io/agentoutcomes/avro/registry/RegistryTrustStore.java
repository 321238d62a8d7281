package io.agentoutcomes.avro.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates a registry client trusts over HTTPS, from a trust store file ({@code schema.registry.ssl.truststore.*}
 * as Confluent's clients name them); without one, the JVM's default trust store applies.
 *
 * @param location the file (PKCS12 or JKS)
 * @param password its password, if it has one
 * @param type     {@code PKCS12} or {@code JKS}
 */
public record RegistryTrustStore(Path location, Optional<String> password, String type) {

    /** An SSL context that trusts this store's certificates (and only those). */
    public SSLContext sslContext() {
        try (InputStream in = Files.newInputStream(location)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.map(String::toCharArray).orElse(null));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot read the trust store " + location + " (" + type + "): " + e.getMessage(), e);
        }
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return "RegistryTrustStore[" + location + ", " + type + "]";
    }
}

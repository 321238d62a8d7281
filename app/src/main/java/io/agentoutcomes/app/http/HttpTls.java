package io.agentoutcomes.app.http;

import io.agentoutcomes.avro.registry.StoreFile;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/** SSL contexts from the {@code http.tls.*} stores; a store that cannot be read is an error naming its setting. */
final class HttpTls {
    private HttpTls() {
    }

    /** A context presenting the keystore's key (when given) and trusting the trust store (when given, else the JVM's). */
    static SSLContext context(Optional<StoreFile> keystore, Optional<String> keyPassword, Optional<StoreFile> truststore) {
        KeyManager[] keys = keystore.map(store -> keyManagers(store, keyPassword)).orElse(null);
        TrustManager[] trust = truststore.map(HttpTls::trustManagers).orElse(null);
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has TLS", e);
        }
    }

    private static KeyManager[] keyManagers(StoreFile store, Optional<String> keyPassword) {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store.load(), keyPassword.or(store::password).map(String::toCharArray).orElse(new char[0]));
            return keys.getKeyManagers();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot use the keystore http.tls.keystore.location=" + store + ": " + e.getMessage(), e);
        }
    }

    private static TrustManager[] trustManagers(StoreFile store) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store.load());
            return trust.getTrustManagers();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot use the trust store http.tls.truststore.location=" + store + ": "
                    + e.getMessage(), e);
        }
    }
}

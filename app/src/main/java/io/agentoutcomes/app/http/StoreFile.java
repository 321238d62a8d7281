package io.agentoutcomes.app.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;

/** A key or trust store file ({@code http.tls.keystore.*}, {@code http.tls.truststore.*}). */
public record StoreFile(Path location, Optional<String> password, String type) {
    KeyStore load() throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(location)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.map(String::toCharArray).orElse(null));
            return store;
        }
    }

    @Override
    public String toString() {
        return location + " (" + type + ")";
    }
}

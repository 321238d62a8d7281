package io.agentoutcomes.avro.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;

/**
 * A key or trust store file: the registry client's ({@code schema.registry.ssl.*}) and the HTTP API's
 * ({@code http.tls.*}).
 *
 * @param location the file (PKCS12 or JKS)
 * @param password its password, if it has one
 * @param type     {@code PKCS12} or {@code JKS}
 */
public record StoreFile(Path location, Optional<String> password, String type) {
    /** The store, read from its file. */
    public KeyStore load() throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(location)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.map(String::toCharArray).orElse(null));
            return store;
        }
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return location + " (" + type + ")";
    }
}

package io.agentoutcomes.app.registry;

/**
 * A write reached a registry that shares its schemas topic with another registry, the writer: the write must be sent
 * there. Only the writer assigns ids, so two registries never give one id to two schemas.
 */
public final class NotTheWriterException extends RuntimeException {
    private final String writerUrl;

    public NotTheWriterException(String writerUrl) {
        super("This schema registry is not the writer of its schemas topic; the writer is at " + writerUrl);
        this.writerUrl = writerUrl;
    }

    /** The base URL of the registry that writes, e.g. {@code http://host-2:8081}. */
    public String writerUrl() {
        return writerUrl;
    }
}

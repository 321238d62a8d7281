package io.agentoutcomes.app.http.query;

/**
 * A query this instance cannot answer completely now (partitions being assigned or restored, another instance not
 * answering): the API says so with 503 and {@code Retry-After} rather than answering with part of the data.
 */
public final class QueryUnavailable extends RuntimeException {
    public QueryUnavailable(String reason) {
        super(reason);
    }
}

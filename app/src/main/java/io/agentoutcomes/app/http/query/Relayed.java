package io.agentoutcomes.app.http.query;

/** Another instance's answer to a request forwarded to it ({@link QueryFanOut#forward}), relayed as it came. */
public record Relayed(int status, String body) implements JobQueries.Answer {
}

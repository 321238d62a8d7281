package io.agentoutcomes.app.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends a write request that reached a registry which is not the writer on to the writer, as it came (method,
 * path, query, body), and relays the writer's answer: its JSON on success, its Confluent error otherwise.
 */
final class WriterForwarder {
    /** Marks a forwarded request, so that a registry that has just lost the writer's role does not send it on again. */
    static final String FORWARDED_HEADER = "X-Embedded-Registry-Forwarded";
    /** Confluent's codes for a request the leader could not be reached for, and for a leader not known. */
    static final int FORWARDING_ERROR = 50003;
    static final int UNKNOWN_WRITER = 50004;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /** The writer could not be connected to: it is gone, or its host is. */
    static final class WriterUnreachable extends Exception {
        WriterUnreachable(IOException cause) {
            super(cause);
        }
    }

    private final HttpSecurity security;
    private final HttpClient http;

    /** @param security what the writer is trusted by, and the credentials presented to it */
    WriterForwarder(HttpSecurity security) {
        this.security = security;
        this.http = security.client(CONNECT_TIMEOUT);
    }

    static boolean isForwarded(HttpExchange exchange) {
        return exchange.getRequestHeaders().containsKey(FORWARDED_HEADER);
    }

    /** The writer's answer to the request; throws its error as a {@link SchemaRegistryException}. */
    JsonNode forward(HttpExchange exchange, String writerUrl, String body) throws WriterUnreachable {
        String query = exchange.getRequestURI().getRawQuery();
        URI target = URI.create(writerUrl + exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query));
        HttpRequest.Builder builder = HttpRequest.newBuilder(target)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", RestSchemaRegistryClient.CONTENT_TYPE)
                .header("Accept", RestSchemaRegistryClient.CONTENT_TYPE)
                .header(FORWARDED_HEADER, "true")
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofString(body));
        security.clientAuthorization().ifPresent(value -> builder.header("Authorization", value));
        HttpRequest request = builder.build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new WriterUnreachable(e);
        } catch (IOException e) {
            throw forwardingError(writerUrl, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw forwardingError(writerUrl, "interrupted");
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            throw forwardingError(writerUrl, "HTTP " + response.statusCode() + " with a body that is not JSON");
        }
        if (response.statusCode() == 200) {
            return answer;
        }
        throw new SchemaRegistryException(response.statusCode(),
                answer.path("error_code").asInt(response.statusCode()), answer.path("message").asText());
    }

    private static SchemaRegistryException forwardingError(String writerUrl, String why) {
        return new SchemaRegistryException(500, FORWARDING_ERROR,
                "Error while forwarding the request to the schema registry writer at " + writerUrl + ": " + why);
    }
}

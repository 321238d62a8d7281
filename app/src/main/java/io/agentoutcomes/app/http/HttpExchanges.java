package io.agentoutcomes.app.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reading a request (its path, query and body) and writing an answer (text, JSON, HTML, the API's errors). */
public final class HttpExchanges {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JSON_TYPE = "application/json";
    private static final String HTML_TYPE = "text/html; charset=utf-8";

    private HttpExchanges() {
    }

    /** Sends a body with a content type and closes the exchange. */
    public static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head || bytes.length == 0 ? -1 : bytes.length);
        if (!head && bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        exchange.close();
    }

    /** Sends a JSON body. */
    public static void json(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        send(exchange, status, JSON_TYPE, body.toString());
    }

    /** Sends a JSON body given as text (another instance's answer, relayed). */
    public static void json(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, JSON_TYPE, body);
    }

    /** Sends an HTML page. */
    public static void html(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, HTML_TYPE, body);
    }

    /** The API's error body: what went wrong and the detail. */
    public static ObjectNode error(String error, String detail) {
        return JSON.createObjectNode().put("error", error).put("detail", detail);
    }

    /** The API's answer to what it cannot answer completely now: 503, retry in a second. */
    public static void unavailable(HttpExchange exchange, String reason) throws IOException {
        exchange.getResponseHeaders().set("Retry-After", "1");
        json(exchange, 503, error("unavailable", reason).put("retryAfterSeconds", 1)
                .put("advice", "partitions are being assigned or restored; retry the same request shortly"));
    }

    /** The query string's parameters (the last value of a repeated one); a malformed escape is a {@link BadRequest}. */
    public static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> params = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            params.put(decode(name, "query"), decode(value, "query"));
        }
        return params;
    }

    /** The path's segments, decoded; a malformed escape is a {@link BadRequest}. */
    public static List<String> segments(HttpExchange exchange) {
        return Arrays.stream(exchange.getRequestURI().getRawPath().split("/")).filter(s -> !s.isEmpty())
                .map(s -> decode(s, "path")).toList();
    }

    private static String decode(String text, String where) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("malformed %-escape in the " + where);
        }
    }

    /** A request that cannot be answered as asked: 400 with this message as the reason. */
    public static final class BadRequest extends RuntimeException {
        public BadRequest(String reason) {
            super(reason);
        }
    }

    /**
     * How much of a refused body is read and thrown away before answering, as Tomcat's {@code maxSwallowSize}: a
     * client that sends its whole body before reading the answer then reads the 413 instead of a connection reset.
     * Past this the connection is closed unread.
     */
    static final long SWALLOW_BYTES = 4L * 1024 * 1024;

    /**
     * The request body as text, or empty when it is longer than {@code maxBytes} (by its Content-Length, or once more
     * than that has been read of a chunked one): nothing larger is held in memory. A refused body is read on and
     * discarded up to {@link #SWALLOW_BYTES}, and the answer closes the connection.
     */
    public static Optional<String> body(HttpExchange exchange, int maxBytes) throws IOException {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null && length.trim().matches("\\d{1,18}") && Long.parseLong(length.trim()) > maxBytes) {
            return refuse(exchange);
        }
        byte[] bytes = exchange.getRequestBody().readNBytes(maxBytes + 1);
        return bytes.length > maxBytes ? refuse(exchange) : Optional.of(new String(bytes, StandardCharsets.UTF_8));
    }

    private static Optional<String> refuse(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Connection", "close");
        InputStream in = exchange.getRequestBody();
        byte[] buffer = new byte[64 * 1024];
        long left = SWALLOW_BYTES;
        for (int read; left > 0 && (read = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0; ) {
            left -= read;
        }
        return Optional.empty();
    }
}

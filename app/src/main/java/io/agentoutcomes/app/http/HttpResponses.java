package io.agentoutcomes.app.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/** Starting the JDK's HTTP server, writing answers and reading requests: shared by the project's servers. */
public final class HttpResponses {
    /**
     * The longest a client may take to send a request (its line and headers; a body too): past it the JDK's server
     * closes the connection. A client that sends part of a request and stops holds a request reader until then.
     */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /**
     * The longest from a request read to its answer sent: past it the connection is closed, so a client that does not
     * read its answer cannot hold a thread. Longer than any answer takes (a query waits at most 5 s per instance, a
     * forwarded registry write 40 s).
     */
    public static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Threads that read requests (and answer the embedded registry's), and connections that may wait for one. Each idle
     * half-open connection holds a thread until {@link #REQUEST_TIMEOUT}; past threads and queue, a new connection is
     * closed at once.
     */
    static final int REQUEST_READERS = 64;

    static {
        // The JDK's server reads its timeouts (whole seconds) from system properties, once, when its first server is
        // made; without them it waits for a request forever. -D in JAVA_OPTS still wins.
        setUnlessGiven("sun.net.httpserver.maxReqTime", REQUEST_TIMEOUT);
        setUnlessGiven("sun.net.httpserver.maxRspTime", RESPONSE_TIMEOUT);
    }

    private HttpResponses() {
    }

    private static void setUnlessGiven(String property, Duration timeout) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, String.valueOf(timeout.toSeconds()));
        }
    }

    /** A plain HTTP server ({@link #listen(String, int, String, Optional)} without TLS). */
    public static HttpServer listen(String host, int port, String threadName) throws IOException {
        return listen(host, port, threadName, Optional.empty());
    }

    /**
     * A server on {@code host:port} (0: any free port), not started, speaking HTTPS with {@code tls} when given, whose
     * requests (and TLS handshakes) are read on a pool of daemon threads: a thread per connection being read, up to
     * {@value #REQUEST_READERS}, so a few slow clients never hold up the others; then a queue as long, then the
     * connection is closed.
     */
    public static HttpServer listen(String host, int port, String threadName, Optional<SSLContext> tls) throws IOException {
        InetSocketAddress address = new InetSocketAddress(host, port);
        HttpServer server;
        if (tls.isPresent()) {
            HttpsServer https = HttpsServer.create(address, 64);
            https.setHttpsConfigurator(new HttpsConfigurator(tls.get()));
            server = https;
        } else {
            server = HttpServer.create(address, 64);
        }
        ThreadPoolExecutor readers = new ThreadPoolExecutor(REQUEST_READERS, REQUEST_READERS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(REQUEST_READERS), r -> {
                    Thread thread = new Thread(r, threadName);
                    thread.setDaemon(true);
                    return thread;
                });
        readers.allowCoreThreadTimeOut(true);
        server.setExecutor(readers);
        return server;
    }

    /** Stops a server made by {@link #listen} and its threads. */
    public static void stop(HttpServer server) {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
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

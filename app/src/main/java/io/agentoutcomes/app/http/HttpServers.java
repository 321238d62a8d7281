package io.agentoutcomes.app.http;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/** Starting and stopping the JDK's HTTP server, with the timeouts and reader threads every server of the project shares. */
public final class HttpServers {
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
        setUnlessGiven("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_TIMEOUT.toSeconds()));
        setUnlessGiven("sun.net.httpserver.maxRspTime", String.valueOf(RESPONSE_TIMEOUT.toSeconds()));
        // The server writes an answer's headers and body apart: with Nagle's algorithm on, the body waits for the
        // client's delayed ACK of the headers, ~40-50 ms an answer on Linux (each of the ~20 schema registrations at
        // start took ~50 ms through the embedded registry).
        setUnlessGiven("sun.net.httpserver.nodelay", "true");
    }

    private HttpServers() {
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
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
        return listen(host, port, threadName, tls, false);
    }

    /** As {@link #listen(String, int, String, Optional)}; with {@code needClientAuth}, a TLS client without a trusted certificate is refused in the handshake. */
    public static HttpServer listen(String host, int port, String threadName, Optional<SSLContext> tls,
                                    boolean needClientAuth) throws IOException {
        InetSocketAddress address = new InetSocketAddress(host, port);
        HttpServer server;
        if (tls.isPresent()) {
            HttpsServer https = HttpsServer.create(address, 64);
            https.setHttpsConfigurator(new HttpsConfigurator(tls.get()) {
                @Override
                public void configure(HttpsParameters params) {
                    SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                    parameters.setNeedClientAuth(needClientAuth);
                    params.setSSLParameters(parameters);
                }
            });
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
}

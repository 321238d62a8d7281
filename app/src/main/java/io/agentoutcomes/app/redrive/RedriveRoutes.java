package io.agentoutcomes.app.redrive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.agentoutcomes.app.http.HttpApiServer;
import io.agentoutcomes.app.http.HttpApiServer.Access;
import io.agentoutcomes.app.http.HttpApiServer.Endpoint;
import io.agentoutcomes.app.http.HttpApiServer.Pool;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.HttpExchanges.BadRequest;
import io.agentoutcomes.app.http.Routes.Route;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code POST /redrive}: a {@link Redrive} over HTTP. The body is a JSON object of the filters ({@code errorCode},
 * {@code agent}, {@code provider}, {@code stopReason}, {@code from}, {@code to}), {@code dryRun} (default true: a
 * redrive writes only when asked to in so many words) and {@code limit}; the answer is the report's counts as JSON.
 * Like every data route it needs the service's credentials when authentication is on.
 */
public final class RedriveRoutes {
    /** A body is a few filters: anything longer is refused (413) unread. */
    static final int MAX_BODY_BYTES = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("errorCode", "agent", "provider", "stopReason", "from", "to",
            "dryRun", "limit");

    private RedriveRoutes() {
    }

    /** The route, answered by {@code attached} once the service has it. */
    public static List<Route<Endpoint>> routes(Supplier<Redrive> attached) {
        return List.of(HttpApiServer.post("/redrive", Pool.QUERIES, Access.CREDENTIALS,
                (exchange, path) -> answer(exchange, attached.get())));
    }

    private static void answer(HttpExchange exchange, Redrive redrive) throws IOException {
        // Only JSON: a browser cannot send it to another origin without a CORS preflight, which this server never
        // grants, so a web page cannot make a visitor's browser redrive on a loopback service that asks no credentials.
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            HttpExchanges.json(exchange, 415, HttpExchanges.error("unsupported media type",
                    "send the filters as a JSON object with Content-Type: application/json"));
            return;
        }
        Optional<String> body = HttpExchanges.body(exchange, MAX_BODY_BYTES);
        if (body.isEmpty()) {
            HttpExchanges.json(exchange, 413, HttpExchanges.error("too large",
                    "a redrive request is at most " + MAX_BODY_BYTES + " bytes"));
            return;
        }
        JsonNode request = parse(body.get());
        RedriveFilter filter;
        try {
            filter = RedriveFilter.parse(text(request, "errorCode"), text(request, "agent"), text(request, "provider"),
                    text(request, "stopReason"), text(request, "from"), text(request, "to"));
        } catch (IllegalArgumentException e) {
            throw new BadRequest(e.getMessage());
        }
        boolean dryRun = !request.has("dryRun") || request.get("dryRun").isNull() || bool(request.get("dryRun"));
        int limit = request.has("limit") ? limit(request.get("limit")) : Redrive.DEFAULT_LIMIT;
        RedriveReport report;
        try {
            report = redrive.run(filter, dryRun, limit, "HTTP API (" + exchange.getRemoteAddress().getAddress().getHostAddress() + ")");
        } catch (IllegalStateException e) {
            HttpExchanges.json(exchange, 409, HttpExchanges.error("conflict", e.getMessage()));
            return;
        }
        HttpExchanges.json(exchange, 200, report.toJson());
    }

    private static JsonNode parse(String body) {
        JsonNode request;
        try {
            request = body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
        } catch (IOException e) {
            throw new BadRequest("the body is not JSON");
        }
        if (!(request instanceof ObjectNode)) {
            throw new BadRequest("the body must be a JSON object of filters");
        }
        for (Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new BadRequest("unknown field '" + (name.length() > 64 ? name.substring(0, 64) : name)
                        + "': the fields are " + FIELDS.stream().sorted().toList());
            }
        }
        return request;
    }

    private static String text(JsonNode request, String name) {
        JsonNode value = request.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new BadRequest(name + " must be a string");
        }
        return value.asText();
    }

    private static boolean bool(JsonNode value) {
        if (!value.isBoolean()) {
            throw new BadRequest("dryRun must be true or false");
        }
        return value.asBoolean();
    }

    private static int limit(JsonNode value) {
        if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < 1 || value.asInt() > Redrive.MAX_LIMIT) {
            throw new BadRequest("limit must be a whole number 1.." + Redrive.MAX_LIMIT);
        }
        return value.asInt();
    }
}

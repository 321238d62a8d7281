package io.agentoutcomes.app.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP API's route table: each route a path pattern ({@code /jobs/{id}/completed}: literal segments and named
 * ones), the threads that answer it, who may ask, and its handler. The first route that matches answers; GET and HEAD only.
 */
final class Routes {
    /** The threads a route is answered on: health and metrics apart from queries, so slow queries cannot starve them. */
    enum Pool { PROBES, QUERIES }

    /** Who a route answers: anyone (health), anyone unless metrics are protected, or only requests with the credentials. */
    enum Access { PUBLIC, METRICS, CREDENTIALS }

    interface Handler {
        void handle(HttpExchange exchange, Map<String, String> path) throws IOException;
    }

    record Route(List<String> pattern, Pool pool, Access access, Handler handler) {
        static Route of(String pattern, Pool pool, Access access, Handler handler) {
            return new Route(Arrays.stream(pattern.split("/")).filter(s -> !s.isEmpty()).toList(), pool, access, handler);
        }

        /** The named segments of a path this route matches, or empty. */
        Optional<Map<String, String>> match(List<String> segments) {
            if (segments.size() != pattern.size()) {
                return Optional.empty();
            }
            Map<String, String> named = new HashMap<>();
            for (int i = 0; i < pattern.size(); i++) {
                String part = pattern.get(i);
                if (part.startsWith("{") && part.endsWith("}")) {
                    named.put(part.substring(1, part.length() - 1), segments.get(i));
                } else if (!part.equals(segments.get(i))) {
                    return Optional.empty();
                }
            }
            return Optional.of(named);
        }
    }

    /** A route and the named segments of the path it matched. */
    record Match(Route route, Map<String, String> path) {
    }

    private final List<Route> routes;

    Routes(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    Optional<Match> find(List<String> segments) {
        for (Route route : routes) {
            Optional<Map<String, String>> named = route.match(segments);
            if (named.isPresent()) {
                return Optional.of(new Match(route, named.get()));
            }
        }
        return Optional.empty();
    }
}

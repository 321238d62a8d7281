package io.agentoutcomes.app.http;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A route table, shared by the HTTP API and the embedded schema registry: each route a method, a path pattern
 * ({@code /jobs/{id}/completed}: literal segments and named ones) and what answers it (the server's own kind of
 * handler). The first route that matches answers.
 */
public final class Routes<T> {
    /** One route: {@code target} answers {@code method} on the paths {@code pattern} matches. */
    public record Route<T>(String method, List<String> pattern, T target) {
        public static <T> Route<T> of(String method, String pattern, T target) {
            return new Route<>(method, Arrays.stream(pattern.split("/")).filter(s -> !s.isEmpty()).toList(), target);
        }

        /** The named segments of a path this route matches, or empty. */
        Optional<Map<String, String>> match(String method, List<String> segments) {
            if (!this.method.equals(method) || segments.size() != pattern.size()) {
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
    public record Match<T>(Route<T> route, Map<String, String> path) {
        public T target() {
            return route.target();
        }
    }

    private final List<Route<T>> routes;

    public Routes(List<Route<T>> routes) {
        this.routes = List.copyOf(routes);
    }

    /** The first route for this method and path, with the path's named segments. */
    public Optional<Match<T>> find(String method, List<String> segments) {
        for (Route<T> route : routes) {
            Optional<Map<String, String>> named = route.match(method, segments);
            if (named.isPresent()) {
                return Optional.of(new Match<>(route, named.get()));
            }
        }
        return Optional.empty();
    }
}

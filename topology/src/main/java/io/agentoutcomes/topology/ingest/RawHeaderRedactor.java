package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Decides which provider response headers ({@code provider_data.raw_headers}) may be written to Kafka:
 * rate-limit, retry-after and request-id headers, and nothing that looks like a credential (authorization, cookies,
 * anything named like a key, token or secret that is not a rate-limit counter). Everything else is dropped: a header
 * nobody asked for is not worth the risk of leaking one that should have stayed secret.
 */
public final class RawHeaderRedactor {
    private static final Pattern KEEP = Pattern.compile(
            "(x-)?ratelimit-.*|[a-z0-9-]*-ratelimit-.*|retry-after(-ms)?|(x-)?request-id|[a-z0-9-]*-request-id");
    private static final Pattern CREDENTIAL = Pattern.compile(
            "(proxy-)?authorization|(set-)?cookie|.*(secret|password|passwd|credential|session|api-?key|access-?key"
                    + "|private|bearer|auth-?token|access-?token|refresh-?token|id-?token).*");

    private RawHeaderRedactor() {
    }

    /** Whether a header (by name, any case) is kept. */
    public static boolean keeps(String name) {
        String lower = name.toLowerCase(Locale.ROOT).trim();
        return KEEP.matcher(lower).matches() && !CREDENTIAL.matcher(lower).matches();
    }

    /** The headers that are kept, names lower-cased (raw headers are normalized to lower case). */
    public static Map<String, String> redact(Map<String, String> headers) {
        Map<String, String> kept = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            if (keeps(name)) {
                kept.put(name.toLowerCase(Locale.ROOT).trim(), value);
            }
        });
        return kept;
    }

    /**
     * The JSON record with every {@code provider_data.raw_headers} (top level, or in a {@code result} or
     * {@code payload}, or in a structured CloudEvent's {@code data}) redacted, when it had something to remove; empty
     * when the bytes are not a JSON object or nothing needed removing. For rejected records, which are otherwise
     * written as they came.
     */
    public static Optional<byte[]> scrubJson(byte[] json) {
        JsonNode root;
        if (json != null && json.length > JsonLimits.MAX_DOCUMENT_BYTES) {
            return Optional.empty();
        }
        try {
            root = json == null ? null : BoundedJson.MAPPER.readTree(json);
        } catch (IOException | RuntimeException notJson) {
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            return Optional.empty();
        }
        boolean changed = false;
        JsonNode data = root.path("data"); // a structured CloudEvent's
        for (JsonNode holder : List.of(root, root.path("result"), root.path("payload"), data, data.path("result"),
                data.path("payload"))) {
            JsonNode headers = holder.path("provider_data").path("raw_headers");
            if (headers.isObject()) {
                List<String> drop = new ArrayList<>();
                headers.fieldNames().forEachRemaining(name -> {
                    if (!keeps(name)) {
                        drop.add(name);
                    }
                });
                ((ObjectNode) headers).remove(drop);
                changed |= !drop.isEmpty();
            }
        }
        return changed ? Optional.of(root.toString().getBytes(StandardCharsets.UTF_8)) : Optional.empty();
    }
}

package io.agentoutcomes.topology.ingest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The context attributes of a CloudEvent an input record was wrapped in ({@link CloudEvents}): the required
 * {@code id}, {@code source} and {@code type}, the optional {@code subject}, and every attribute as text by name
 * (extensions such as {@code traceparent} included, {@code data} and {@code datacontenttype} not).
 *
 * @param mode       how the event was carried: {@link Mode#STRUCTURED} in the value, {@link Mode#BINARY} in headers
 * @param attributes every context attribute by name, in the order read ({@code specversion}, {@code id}, ...)
 */
public record CloudEvent(Mode mode, String id, String source, String type, String subject, Map<String, String> attributes) {
    /** The CloudEvents Kafka protocol binding's two content modes. */
    public enum Mode {
        /** {@code content-type: application/cloudevents+json}, the whole event as JSON in the value. */
        STRUCTURED,
        /** Attributes as {@code ce_*} headers, the data as the value, its media type in {@code content-type}. */
        BINARY
    }

    public CloudEvent {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    /** An attribute's text, or null. */
    public String attribute(String name) {
        return attributes.get(name);
    }
}

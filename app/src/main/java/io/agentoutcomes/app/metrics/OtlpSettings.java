package io.agentoutcomes.app.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The OTLP metrics push ({@code metrics.otlp.*}): the OTLP/HTTP endpoint, how often, the headers sent with each push
 * (secret: an API key, never shown, {@link #toString}) and the resource attributes ({@code service.name}, ...).
 */
public record OtlpSettings(String url, Duration step, Map<String, String> headers, Map<String, String> resourceAttributes) {
    public OtlpSettings {
        headers = Map.copyOf(headers);
        resourceAttributes = Map.copyOf(resourceAttributes);
    }

    /** The settings with the headers' names only: their values are secrets. */
    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        headers.keySet().forEach(name -> shown.put(name, "[hidden]"));
        return "OtlpSettings[url=" + url + ", step=" + step + ", headers=" + shown + ", resourceAttributes="
                + new TreeMap<>(resourceAttributes) + "]";
    }
}

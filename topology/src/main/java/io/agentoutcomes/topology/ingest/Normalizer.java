package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;

/** Turns one JSON object into a canonical record; throws {@link InvalidInputException} for bad input. */
@FunctionalInterface
public interface Normalizer<V> {
    V normalize(JsonNode json, RecordContext context);
}

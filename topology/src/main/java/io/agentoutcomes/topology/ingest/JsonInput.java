package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON input record as a normalizer reads it: its JSON object (a CloudEvent's data when it came wrapped in one) and
 * its context (with that CloudEvent, when there was one).
 */
public record JsonInput(JsonNode root, RecordContext context) {
}

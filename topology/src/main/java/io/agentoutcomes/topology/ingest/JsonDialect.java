package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;

/**
 * One JSON shape an agent result may be published in: how to recognise it and how to read it. The dialects and the
 * order in which their shapes are tried are {@link AgentResultNormalizer#DIALECTS}; adding one is a class and an
 * entry there (and, for the record to name it, a symbol of the contract's {@link Dialect}).
 */
interface JsonDialect {
    /** The contract's name for it: stamped on each record it reads, matched against the {@code dialect} header. */
    Dialect id();

    /** Its shape in a few words, for the refusal that names the accepted shapes ("a flatagents result (output, ...)"). */
    String shape();

    /** Whether a record with no {@code dialect} header has this shape (tried in the list's order; the first wins). */
    boolean detect(JsonFields root);

    /** The canonical result without the identity every dialect shares; an {@link InvalidInputException} if invalid. */
    AgentResult.Builder normalize(JsonFields root, RecordContext context);

    /** The top-level {@code status} when it is a string, else null: the member most shapes are told apart by. */
    static String status(JsonFields root) {
        return root.node().path("status").isTextual() ? root.node().get("status").asText() : null;
    }
}

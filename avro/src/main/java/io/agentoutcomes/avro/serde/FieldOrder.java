package io.agentoutcomes.avro.serde;

import java.io.IOException;
import org.apache.avro.io.ResolvingDecoder;

/** What the hand-written record coders require of the decoder they read: their record's own field order. */
final class FieldOrder {
    private FieldOrder() {
    }

    /** A record's own schema resolved to itself keeps its fields' order; anything else is not for a coder. */
    static void check(ResolvingDecoder in) throws IOException {
        if (in.readFieldOrderIfDiff() != null) {
            throw new IllegalStateException("a record coder was given a schema resolution with reordered fields");
        }
    }
}

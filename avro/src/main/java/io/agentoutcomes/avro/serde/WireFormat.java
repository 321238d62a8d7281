package io.agentoutcomes.avro.serde;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/** Confluent's wire format: magic byte 0, the schema id as 4 bytes big-endian, then the Avro binary datum. */
public final class WireFormat {
    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /** The subject a topic's keys or values are registered under (Confluent's TopicNameStrategy). */
    public static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }

    /**
     * Reads and checks the header of a record, leaving the buffer at the start of the Avro datum.
     *
     * @return the writer's schema id
     * @throws UnknownMagicByteException if the record does not start with magic byte 0
     */
    public static int readHeader(ByteBuffer buffer, String topic) {
        if (buffer.remaining() < HEADER_SIZE) {
            throw new SerializationException("Record of " + buffer.remaining() + " bytes from topic '" + topic
                    + "' is too short for the Confluent wire format (magic byte and 4-byte schema id, then Avro)");
        }
        byte magic = buffer.get();
        if (magic != MAGIC_BYTE) {
            throw new UnknownMagicByteException(magic, topic);
        }
        return buffer.getInt();
    }
}

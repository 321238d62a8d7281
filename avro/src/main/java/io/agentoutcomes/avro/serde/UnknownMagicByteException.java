package io.agentoutcomes.avro.serde;

import org.apache.kafka.common.errors.SerializationException;

/** A record that does not start with the Confluent wire format's magic byte 0: not written by a schema-registry serde. */
public class UnknownMagicByteException extends SerializationException {
    private final byte magicByte;

    public UnknownMagicByteException(byte magicByte, String topic) {
        super(String.format("Unknown magic byte 0x%02x in a record from topic '%s': expected 0x00, the Confluent "
                + "wire format (magic byte, 4-byte schema id, Avro binary)%s", magicByte, topic,
                magicByte == '{' || magicByte == '[' ? "; the record looks like JSON, which belongs on a -json topic" : ""));
        this.magicByte = magicByte;
    }

    public byte magicByte() {
        return magicByte;
    }
}

package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** A Kafka {@link Serde} for Avro records in the Confluent wire format, through a schema registry. */
public final class AvroSerde<T extends GenericContainer> implements Serde<T> {
    private final AvroSerializer<T> serializer;
    private final AvroDeserializer<T> deserializer;

    private AvroSerde(AvroSerializer<T> serializer, AvroDeserializer<T> deserializer) {
        this.serializer = serializer;
        this.deserializer = deserializer;
    }

    /** A serde for a generated class, read with that class's schema whatever schema the writer used. */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type) {
        return specific(type, null);
    }

    /** As {@link #specific(Class)}, with a given registry client (null: made from the configuration). */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type, SchemaRegistryClient client) {
        return new AvroSerde<>(new AvroSerializer<>(client),
                new AvroDeserializer<>(SpecificData.get().getSchema(type), client));
    }

    /** A serde for generic records, read with the writer's schema. */
    public static AvroSerde<GenericRecord> generic(SchemaRegistryClient client) {
        return new AvroSerde<>(new AvroSerializer<>(client), new AvroDeserializer<>(null, client));
    }

    /** Configures both sides; returns this, for one-line set-up. */
    public AvroSerde<T> configured(Map<String, ?> configs, boolean isKey) {
        configure(configs, isKey);
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }
}

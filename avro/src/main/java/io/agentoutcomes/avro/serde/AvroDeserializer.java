package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BoundedBinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent wire-format records: fetches the writer's schema by the id in the record (cached), and resolves
 * it to the reader's schema (schema evolution): a generated class's schema, or the writer's own for generic records.
 */
public class AvroDeserializer<T> implements Deserializer<T> {
    private final Schema readerSchema;
    private final Map<Integer, DatumReader<Object>> readers = new ConcurrentHashMap<>();
    /**
     * A decoder per thread, re-pointed at each record instead of made anew; it refuses lengths and counts the record's
     * bytes cannot hold, so a few hostile bytes cannot ask for gigabytes.
     */
    private static final ThreadLocal<BoundedBinaryDecoder> DECODERS = ThreadLocal.withInitial(BoundedBinaryDecoder::new);
    private SchemaRegistryClient client;
    private boolean specific;

    /** Generic records, or generated classes when {@code specific.avro.reader=true}; for Kafka to instantiate. */
    public AvroDeserializer() {
        this(null, null);
    }

    /**
     * @param readerSchema the schema to read as (a generated class's {@code SCHEMA$}), or null for the writer's
     * @param client       a registry client, or null to make one from the configuration
     */
    public AvroDeserializer(Schema readerSchema, SchemaRegistryClient client) {
        this.readerSchema = readerSchema;
        this.client = client;
        this.specific = readerSchema != null;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        AvroSerdeConfig config = AvroSerdeConfig.from(configs);
        specific = readerSchema != null || config.specificReader();
        if (client == null) {
            client = config.newClient();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (client == null) {
            throw new IllegalStateException("AvroDeserializer used before configure()");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int id = WireFormat.readHeader(buffer, topic);
        DatumReader<Object> reader = readers.computeIfAbsent(id, writerId -> readerFor(writerId, topic));
        try {
            return (T) reader.read(null, DECODERS.get().reset(bytes, buffer.position(), buffer.remaining()));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Could not decode the Avro record from topic '" + topic
                    + "' written with schema id " + id + ": " + e, e);
        }
    }

    private DatumReader<Object> readerFor(int writerId, String topic) {
        String writerText;
        try {
            writerText = client.schemaById(writerId);
        } catch (SchemaRegistryException e) {
            if (e.errorCode() == SchemaRegistryException.SCHEMA_NOT_FOUND || e.status() == 404) {
                throw new UnknownSchemaIdException(writerId, topic, client.describe(), e);
            }
            throw e;
        }
        Schema writer = new Schema.Parser().parse(writerText);
        if (!specific) {
            return new GenericDatumReader<>(writer, writer, GenericData.get());
        }
        return RecordCoders.readerFor(writer, readerSchema != null ? readerSchema : writer);
    }
}

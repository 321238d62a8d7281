package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro records (generated classes or generic records) in the Confluent wire format, registering the
 * record's schema under {@code <topic>-value} / {@code <topic>-key} (or, with {@code auto.register.schemas=false},
 * looking its id up; with {@code use.latest.version=true}, writing with the subject's latest schema).
 */
public class AvroSerializer<T extends GenericContainer> implements Serializer<T> {
    private final Map<Schema, String> schemaTexts = new ConcurrentHashMap<>();
    private final Map<Schema, DatumWriter<Object>> writers = new ConcurrentHashMap<>();
    private final Map<String, Schema> latestSchemas = new ConcurrentHashMap<>();
    /** The id last written, by topic and schema instance: a serializer mostly writes one schema to one topic. */
    private volatile LastWritten last;
    private SchemaRegistryClient client;
    private AvroSerdeConfig config;
    private boolean isKey;

    /** For Kafka to instantiate and {@link #configure}. */
    public AvroSerializer() {
    }

    /** With a given registry client; {@link #configure} still reads the other settings. */
    public AvroSerializer(SchemaRegistryClient client) {
        this.client = client;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.config = AvroSerdeConfig.from(configs);
        this.isKey = isKey;
        if (client == null) {
            client = config.newClient();
        }
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        if (config == null) {
            throw new IllegalStateException("AvroSerializer used before configure()");
        }
        Schema schema = data.getSchema();
        Object datum = data;
        int id;
        LastWritten previous = last;
        if (previous != null && previous.schema() == schema && previous.topic().equals(topic)) {
            id = previous.id();
        } else if (config.useLatestVersion()) {
            String subject = WireFormat.subject(topic, isKey);
            RegisteredSchema latest = client.latest(subject);
            Schema latestSchema = latestSchemas.computeIfAbsent(latest.schema(), text -> new Schema.Parser().parse(text));
            if (!latestSchema.equals(schema)) {
                datum = resolve(data, schema, latestSchema);
                schema = latestSchema;
            }
            id = latest.id();
        } else {
            String text = schemaTexts.computeIfAbsent(schema, Schema::toString);
            String subject = WireFormat.subject(topic, isKey);
            id = config.autoRegister() ? client.register(subject, text) : client.idOf(subject, text);
            // the latest version can change (use.latest.version has a cache time to live): only ids by schema are kept
            last = new LastWritten(topic, schema, id);
        }
        EncodingBuffer out = EncodingBuffer.get();
        out.writeHeader(id);
        try {
            BinaryEncoder encoder = out.encoder();
            writers.computeIfAbsent(schema, RecordCoders::writerFor).write(datum, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Could not write " + schema.getFullName() + " for topic '" + topic
                    + "' with schema id " + id + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    private record LastWritten(String topic, Schema schema, int id) {
    }

    /** Re-reads a datum written with its own schema as the target schema would see it (Avro schema resolution). */
    private Object resolve(T data, Schema from, Schema to) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
            writers.computeIfAbsent(from, RecordCoders::writerFor).write(data, encoder);
            encoder.flush();
            return new GenericDatumReader<>(from, to, GenericData.get())
                    .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("use.latest.version: a " + from.getFullName()
                    + " cannot be written with the subject's latest schema: " + e.getMessage(), e);
        }
    }
}

package io.agentoutcomes.topology.schedule;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroModel;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * A pending retry as the scheduler's store holds it: the record's headers (so {@code traceparent} and the identity
 * headers reach {@code retry-ready}), then the {@link RetryRequest} in Avro's binary encoding. Headers beyond
 * {@value #MAX_HEADER_BYTES} bytes in all are not kept (the input limit bounds what arrives; this bounds what waits).
 * Internal state: no schema-registry header. One instance per stream task (not thread-safe).
 */
public final class PendingRetries {
    /** The most header bytes (names and values) a pending retry keeps. */
    static final int MAX_HEADER_BYTES = 16 * 1024;
    private final SpecificDatumWriter<RetryRequest> writer = new SpecificDatumWriter<>(RetryRequest.getClassSchema(),
            AvroModel.SPECIFIC);
    private final SpecificDatumReader<RetryRequest> reader = new SpecificDatumReader<>(RetryRequest.getClassSchema(),
            RetryRequest.getClassSchema(), AvroModel.SPECIFIC);
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;

    public byte[] encode(Headers headers, RetryRequest retry) {
        buffer.reset();
        DataOutputStream out = new DataOutputStream(buffer);
        try {
            Header[] all = headers == null ? new Header[0] : headers.toArray();
            int kept = 0;
            int bytes = 0;
            for (Header header : all) {
                int size = header.key().length() * 3 + (header.value() == null ? 0 : header.value().length);
                if (bytes + size > MAX_HEADER_BYTES) {
                    break;
                }
                bytes += size;
                kept++;
            }
            out.writeShort(kept);
            for (int i = 0; i < kept; i++) {
                byte[] key = all[i].key().getBytes(StandardCharsets.UTF_8);
                out.writeShort(key.length);
                out.write(key);
                byte[] value = all[i].value();
                out.writeInt(value == null ? -1 : value.length);
                if (value != null) {
                    out.write(value);
                }
            }
            out.flush();
            encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
            writer.write(retry, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    /** The headers of a stored retry. */
    public static Headers headers(byte[] entry) {
        ByteBuffer in = ByteBuffer.wrap(entry);
        RecordHeaders headers = new RecordHeaders();
        int count = in.getShort();
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[in.getShort()];
            in.get(key);
            int length = in.getInt();
            byte[] value = null;
            if (length >= 0) {
                value = new byte[length];
                in.get(value);
            }
            headers.add(new String(key, StandardCharsets.UTF_8), value);
        }
        return headers;
    }

    public RetryRequest retry(byte[] entry) {
        ByteBuffer in = ByteBuffer.wrap(entry);
        int count = in.getShort();
        for (int i = 0; i < count; i++) {
            int keyLength = in.getShort();
            in.position(in.position() + keyLength);
            int length = in.getInt();
            in.position(in.position() + Math.max(0, length));
        }
        decoder = DecoderFactory.get().binaryDecoder(entry, in.position(), entry.length - in.position(), decoder);
        try {
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.agentoutcomes.app.http.query;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/** Lists of records between instances of the same build: a count, then Avro binary records. */
final class RecordListCodec {
    private RecordListCodec() {
    }

    static <T extends SpecificRecord> byte[] encodeList(List<T> records, Class<T> type) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            SpecificDatumWriter<T> writer = new SpecificDatumWriter<>(type);
            encoder.writeInt(records.size());
            for (T record : records) {
                writer.write(record, encoder);
            }
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T extends SpecificRecord> List<T> decodeList(byte[] bytes, Class<T> type) throws IOException {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        SpecificDatumReader<T> reader = new SpecificDatumReader<>(type);
        int count = decoder.readInt();
        List<T> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add(reader.read(null, decoder));
        }
        return records;
    }
}

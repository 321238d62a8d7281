package io.agentoutcomes.app.http;

import io.agentoutcomes.avro.JobReplayState;
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

/** Job states between instances: a count, then Avro binary records (same build, same schema). */
final class JobStateCodec {
    private JobStateCodec() {
    }

    static byte[] encodeList(List<JobReplayState> states) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            SpecificDatumWriter<JobReplayState> writer = new SpecificDatumWriter<>(JobReplayState.class);
            encoder.writeInt(states.size());
            for (JobReplayState state : states) {
                writer.write(state, encoder);
            }
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<JobReplayState> decodeList(byte[] bytes) throws IOException {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        SpecificDatumReader<JobReplayState> reader = new SpecificDatumReader<>(JobReplayState.class);
        int count = decoder.readInt();
        List<JobReplayState> states = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            states.add(reader.read(null, decoder));
        }
        return states;
    }
}

package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DirectResolvingDecoder;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.ResolvingDecoder;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Where the serde picks how to write and read a schema: the hand-written coder of a hot-path record for which Avro
 * generates none ({@link AgentResultCoder}, {@link ClassifiedOutcomeCoder}, {@link RetryRequestCoder},
 * {@link AgentMetricsCoder}), otherwise Avro's specific writer and reader. A coder reads only bytes written with its
 * record's own schema (the common case); a different writer schema is resolved by Avro's reader, unchanged.
 */
final class RecordCoders {
    private static final List<Coder<?>> CODERS = List.of(
            new Coder<>(AgentResult.class, AgentResult.SCHEMA$, AgentResultCoder::encode, AgentResultCoder::decode),
            new Coder<>(ClassifiedOutcome.class, ClassifiedOutcome.SCHEMA$, ClassifiedOutcomeCoder::encode,
                    ClassifiedOutcomeCoder::decode),
            new Coder<>(RetryRequest.class, RetryRequest.SCHEMA$, RetryRequestCoder::encode, RetryRequestCoder::decode),
            new Coder<>(AgentMetrics.class, AgentMetrics.SCHEMA$, AgentMetricsCoder::encode, AgentMetricsCoder::decode));

    private RecordCoders() {
    }

    /** A writer of {@code schema}: its record's coder for instances of the generated class, Avro's for anything else. */
    @SuppressWarnings("unchecked")
    static DatumWriter<Object> writerFor(Schema schema) {
        DatumWriter<Object> avro = (DatumWriter<Object>) (DatumWriter<?>) new SpecificDatumWriter<>(schema, AvroModel.SPECIFIC);
        Coder<?> coder = coderOf(schema);
        return coder == null ? avro : new CodedWriter<>(coder, avro);
    }

    /** A reader of records written with {@code writer} as {@code reader}: a coder when both are its record's schema. */
    static DatumReader<Object> readerFor(Schema writer, Schema reader) {
        Coder<?> coder = writer.equals(reader) ? coderOf(reader) : null;
        return coder == null ? new SpecificDatumReader<>(writer, reader, AvroModel.SPECIFIC) : new CodedReader<>(coder);
    }

    /** Whether records of {@code schema} are written (and, with no resolution to make, read) by a hand-written coder. */
    static boolean isCoded(Schema schema) {
        return coderOf(schema) != null;
    }

    private static Coder<?> coderOf(Schema schema) {
        for (Coder<?> coder : CODERS) {
            if (coder.schema().equals(schema)) {
                return coder;
            }
        }
        return null;
    }

    @FunctionalInterface
    interface Encode<T> {
        void encode(T record, Encoder out) throws IOException;
    }

    @FunctionalInterface
    interface Decode<T> {
        T decode(ResolvingDecoder in) throws IOException;
    }

    private record Coder<T>(Class<T> type, Schema schema, Encode<T> encode, Decode<T> decode) {
    }

    private static final class CodedWriter<T> implements DatumWriter<Object> {
        private final Coder<T> coder;
        private final DatumWriter<Object> avro;

        CodedWriter(Coder<T> coder, DatumWriter<Object> avro) {
            this.coder = coder;
            this.avro = avro;
        }

        @Override
        public void setSchema(Schema schema) {
            throw new UnsupportedOperationException("a record coder writes its own record's schema only");
        }

        @Override
        public void write(Object datum, Encoder out) throws IOException {
            if (coder.type().isInstance(datum)) {
                coder.encode().encode(coder.type().cast(datum), out);
            } else {
                avro.write(datum, out); // a generic record of the same schema
            }
        }
    }

    /**
     * Reads through a {@link DirectResolvingDecoder} of the record's schema, one per thread (as Avro's readers keep
     * theirs): a resolving decoder because the nested records' generated {@code customDecode} takes one, but with no
     * parser step per field, since writer and reader schema are the same; the bytes come from the serde's bounded
     * decoder, so its limits hold.
     */
    static final class CodedReader<T> implements DatumReader<Object> {
        private final Coder<T> coder;
        private final ThreadLocal<ResolvingDecoder> resolvers;

        CodedReader(Coder<T> coder) {
            this.coder = coder;
            this.resolvers = ThreadLocal.withInitial(() -> resolverOf(coder.schema()));
        }

        private static ResolvingDecoder resolverOf(Schema schema) {
            try {
                return new DirectResolvingDecoder(schema, Set.of(AgentResultCoder.OUTCOME));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void setSchema(Schema schema) {
            throw new UnsupportedOperationException("a record coder reads its own record's schema only");
        }

        /** The calling thread's decoder (for the tests: which one is in use). */
        ResolvingDecoder decoder() {
            return resolvers.get();
        }

        @Override
        public Object read(Object reuse, Decoder in) throws IOException {
            ResolvingDecoder resolver = resolvers.get();
            resolver.configure(in);
            T record = coder.decode().decode(resolver);
            resolver.drain();
            return record;
        }
    }
}

package io.agentoutcomes.avro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DirectResolvingDecoder;
import org.apache.avro.specific.SpecificDatumReader;
import org.junit.jupiter.api.Test;

/**
 * Bytes written with a coded record's own schema are read through {@link DirectResolvingDecoder} (no resolving-parser
 * step per field); bytes written with any other schema still go through Avro's resolving reader.
 */
class DirectDecodingTest {

    @Test
    void theSameWriterSchemaIsReadThroughTheDirectDecoder() {
        for (Schema schema : List.of(AgentResult.SCHEMA$, ClassifiedOutcome.SCHEMA$, RetryRequest.SCHEMA$,
                AgentMetrics.SCHEMA$)) {
            DatumReader<Object> reader = RecordCoders.readerFor(schema, schema);

            assertThat(reader).as(schema.getName()).isInstanceOf(RecordCoders.CodedReader.class);
            assertThat(((RecordCoders.CodedReader<?>) reader).decoder()).isInstanceOf(DirectResolvingDecoder.class);
        }
    }

    @Test
    void aDifferentWriterSchemaIsResolvedByAvrosReader() {
        Schema older = SchemaBuilder.record(AgentResult.SCHEMA$.getName()).namespace(AgentResult.SCHEMA$.getNamespace())
                .fields().requiredString("resultId").requiredString("agentId").requiredString("taskId").endRecord();

        assertThat(RecordCoders.readerFor(older, AgentResult.SCHEMA$)).isInstanceOf(SpecificDatumReader.class);
    }
}

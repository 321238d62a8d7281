package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.UnresolvedUnionException;
import org.apache.avro.io.DirectResolvingDecoder;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.ResolvingDecoder;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * {@link AgentResult} in Avro binary, field by field in the schema's order: Avro generates no custom coders for it (its
 * {@code outcome} is a union of four records, and Avro's templates only code {@code ["null", T]} unions), so without
 * this every record holding one went through Avro's generic writer and reader. The same bytes as Avro's own
 * ({@code RecordCodersTest}); the nested records use their generated coders.
 */
final class AgentResultCoder {
    /** The union of the outcome's four records, the one union of the coded records read here, not by generated code. */
    static final Schema OUTCOME = AgentResult.SCHEMA$.getField("outcome").schema();
    private static final Dialect[] DIALECTS = Dialect.values();

    private AgentResultCoder() {
    }

    static void encode(AgentResult record, Encoder out) throws IOException {
        out.writeString(record.getResultId());
        out.writeString(record.getAgentId());
        out.writeString(record.getTaskId());
        NullableFields.writeString(out, record.getJobId());
        NullableFields.writeString(out, record.getNodeId());
        out.writeInt(record.getAttempt());
        NullableFields.writeDouble(out, record.getConfidence());
        out.writeEnum(record.getDialect().ordinal());
        NullableFields.writeLong(out, record.getRecordTimestamp());
        NullableFields.writeRecord(out, record.getExecution());
        NullableFields.writeRecord(out, record.getRateLimit());
        NullableFields.writeRecord(out, record.getProviderData());
        NullableFields.writeString(out, record.getReply());
        NullableFields.writeString(out, record.getSessionState());
        NullableFields.writeString(out, record.getMetadata());
        writeOutcome(out, record.getOutcome());
        NullableFields.writeRecord(out, record.getAttribution());
    }

    /** An {@code ["null", "AgentResult"]} field. */
    static void encodeNullable(AgentResult record, Encoder out) throws IOException {
        if (record == null) {
            out.writeIndex(0);
            out.writeNull();
        } else {
            out.writeIndex(1);
            encode(record, out);
        }
    }

    /** The union's branches in the schema's order: Success, Failure, InProgress, Skipped. */
    private static void writeOutcome(Encoder out, Object outcome) throws IOException {
        int branch;
        if (outcome instanceof Success) {
            branch = 0;
        } else if (outcome instanceof Failure) {
            branch = 1;
        } else if (outcome instanceof InProgress) {
            branch = 2;
        } else if (outcome instanceof Skipped) {
            branch = 3;
        } else {
            throw new UnresolvedUnionException(AgentResult.SCHEMA$.getField("outcome").schema(), outcome);
        }
        out.writeIndex(branch);
        ((SpecificRecordBase) outcome).customEncode(out);
    }

    /** Reads a record written with {@link AgentResult}'s own schema (the decoder resolves that schema to itself). */
    static AgentResult decode(ResolvingDecoder in) throws IOException {
        FieldOrder.check(in);
        AgentResult record = new AgentResult();
        record.setResultId(in.readString());
        record.setAgentId(in.readString());
        record.setTaskId(in.readString());
        record.setJobId(NullableFields.readString(in));
        record.setNodeId(NullableFields.readString(in));
        record.setAttempt(in.readInt());
        record.setConfidence(NullableFields.readDouble(in));
        record.setDialect(DIALECTS[in.readEnum()]);
        record.setRecordTimestamp(NullableFields.readLong(in));
        record.setExecution(NullableFields.readRecord(in, ExecutionMetadata::new));
        record.setRateLimit(NullableFields.readRecord(in, RateLimitState::new));
        record.setProviderData(NullableFields.readRecord(in, ProviderData::new));
        record.setReply(NullableFields.readString(in));
        record.setSessionState(NullableFields.readString(in));
        record.setMetadata(NullableFields.readString(in));
        record.setOutcome(readOutcome(in));
        record.setAttribution(NullableFields.readRecord(in, Attribution::new));
        return record;
    }

    /** An {@code ["null", "AgentResult"]} field. */
    static AgentResult decodeNullable(ResolvingDecoder in) throws IOException {
        if (in.readIndex() == 0) {
            in.readNull();
            return null;
        }
        return decode(in);
    }

    private static SpecificRecordBase readOutcome(ResolvingDecoder in) throws IOException {
        int index = in instanceof DirectResolvingDecoder direct
                ? direct.readIndex(OUTCOME.getTypes().size()) : in.readIndex();
        SpecificRecordBase outcome = switch (index) {
            case 0 -> new Success();
            case 1 -> new Failure();
            case 2 -> new InProgress();
            case 3 -> new Skipped();
            // either decoder refuses an index outside the union first
            default -> throw new IllegalStateException("AgentResult.outcome has four branches");
        };
        outcome.customDecode(in);
        return outcome;
    }
}

package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceCheck;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import java.io.IOException;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.ResolvingDecoder;

/**
 * {@link ClassifiedOutcome} in Avro binary, field by field in the schema's order (Avro generates no custom coders for
 * it: it holds an {@link AgentResult}, see {@link AgentResultCoder}). The same bytes as Avro's own
 * ({@code RecordCodersTest}).
 */
final class ClassifiedOutcomeCoder {
    private static final ResultType[] RESULT_TYPES = ResultType.values();
    private static final ErrorCategory[] ERROR_CATEGORIES = ErrorCategory.values();

    private ClassifiedOutcomeCoder() {
    }

    static void encode(ClassifiedOutcome record, Encoder out) throws IOException {
        out.writeString(record.getTaskId());
        out.writeString(record.getResultId());
        NullableFields.writeString(out, record.getAgentId());
        NullableFields.writeString(out, record.getJobId());
        NullableFields.writeString(out, record.getNodeId());
        out.writeInt(record.getAttempt());
        out.writeEnum(record.getResultType().ordinal());
        NullableFields.writeString(out, record.getErrorCode());
        NullableFields.writeEnum(out, record.getErrorCategory());
        out.writeString(record.getReason());
        NullableFields.writeRecord(out, record.getDecision());
        NullableFields.writeInt(out, record.getRetryCount());
        NullableFields.writeLong(out, record.getRetryDelayMs());
        NullableFields.writeString(out, record.getRetryDelayReason());
        out.writeLong(record.getClassifiedAt());
        NullableFields.writeRecord(out, record.getConfidenceCheck());
        AgentResultCoder.encodeNullable(record.getAgentResult(), out);
        NullableFields.writeRecord(out, record.getNodeFinished());
    }

    /** Reads a record written with {@link ClassifiedOutcome}'s own schema (resolved to itself). */
    static ClassifiedOutcome decode(ResolvingDecoder in) throws IOException {
        FieldOrder.check(in);
        ClassifiedOutcome record = new ClassifiedOutcome();
        record.setTaskId(in.readString());
        record.setResultId(in.readString());
        record.setAgentId(NullableFields.readString(in));
        record.setJobId(NullableFields.readString(in));
        record.setNodeId(NullableFields.readString(in));
        record.setAttempt(in.readInt());
        record.setResultType(RESULT_TYPES[in.readEnum()]);
        record.setErrorCode(NullableFields.readString(in));
        record.setErrorCategory(NullableFields.readEnum(in, ERROR_CATEGORIES));
        record.setReason(in.readString());
        record.setDecision(NullableFields.readRecord(in, Decision::new));
        record.setRetryCount(NullableFields.readInt(in));
        record.setRetryDelayMs(NullableFields.readLong(in));
        record.setRetryDelayReason(NullableFields.readString(in));
        record.setClassifiedAt(in.readLong());
        record.setConfidenceCheck(NullableFields.readRecord(in, ConfidenceCheck::new));
        record.setAgentResult(AgentResultCoder.decodeNullable(in));
        record.setNodeFinished(NullableFields.readRecord(in, NodeFinished::new));
        return record;
    }
}

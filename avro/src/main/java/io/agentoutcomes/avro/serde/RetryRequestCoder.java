package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import java.io.IOException;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.ResolvingDecoder;

/**
 * {@link RetryRequest} in Avro binary, field by field in the schema's order (Avro generates no custom coders for it:
 * it holds an {@link AgentResult}, see {@link AgentResultCoder}). The same bytes as Avro's own
 * ({@code RecordCodersTest}).
 */
final class RetryRequestCoder {
    private static final RetryAction[] RETRY_ACTIONS = RetryAction.values();
    private static final FallbackCause[] FALLBACK_CAUSES = FallbackCause.values();

    private RetryRequestCoder() {
    }

    static void encode(RetryRequest record, Encoder out) throws IOException {
        out.writeString(record.getTaskId());
        out.writeString(record.getResultId());
        NullableFields.writeString(out, record.getAgentId());
        NullableFields.writeString(out, record.getJobId());
        NullableFields.writeString(out, record.getNodeId());
        out.writeInt(record.getNextAttempt());
        out.writeString(record.getErrorCode());
        out.writeLong(record.getDelayMs());
        out.writeString(record.getDelayReason());
        out.writeString(record.getTier());
        out.writeLong(record.getFailedAt());
        out.writeLong(record.getDueAt());
        out.writeString(record.getReason());
        NullableFields.writeEnum(out, record.getAction());
        NullableFields.writeString(out, record.getExhaustedWindow());
        NullableFields.writeLong(out, record.getWindowResetAt());
        AgentResultCoder.encodeNullable(record.getAgentResult(), out);
        NullableFields.writeRecord(out, record.getNodeFinished());
        NullableFields.writeString(out, record.getFallbackProvider());
        NullableFields.writeString(out, record.getFallbackModel());
        NullableFields.writeEnum(out, record.getFallbackCause());
        NullableFields.writeString(out, record.getFallbackReason());
    }

    /** Reads a record written with {@link RetryRequest}'s own schema (resolved to itself). */
    static RetryRequest decode(ResolvingDecoder in) throws IOException {
        FieldOrder.check(in);
        RetryRequest record = new RetryRequest();
        record.setTaskId(in.readString());
        record.setResultId(in.readString());
        record.setAgentId(NullableFields.readString(in));
        record.setJobId(NullableFields.readString(in));
        record.setNodeId(NullableFields.readString(in));
        record.setNextAttempt(in.readInt());
        record.setErrorCode(in.readString());
        record.setDelayMs(in.readLong());
        record.setDelayReason(in.readString());
        record.setTier(in.readString());
        record.setFailedAt(in.readLong());
        record.setDueAt(in.readLong());
        record.setReason(in.readString());
        record.setAction(NullableFields.readEnum(in, RETRY_ACTIONS));
        record.setExhaustedWindow(NullableFields.readString(in));
        record.setWindowResetAt(NullableFields.readLong(in));
        record.setAgentResult(AgentResultCoder.decodeNullable(in));
        record.setNodeFinished(NullableFields.readRecord(in, NodeFinished::new));
        record.setFallbackProvider(NullableFields.readString(in));
        record.setFallbackModel(NullableFields.readString(in));
        record.setFallbackCause(NullableFields.readEnum(in, FALLBACK_CAUSES));
        record.setFallbackReason(NullableFields.readString(in));
        return record;
    }
}

package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.AgentMetrics;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.ResolvingDecoder;

/**
 * {@link AgentMetrics} in Avro binary, field by field in the schema's order: Avro generates no custom coders for it
 * (its money is {@code decimal(38, 12)}, a logical type), so the generic writer and reader did it. The decimals go
 * through Avro's own {@link Conversions.DecimalConversion} (its checks and rescaling included); the same bytes as
 * Avro's ({@code RecordCodersTest}).
 */
final class AgentMetricsCoder {
    private static final Conversions.DecimalConversion DECIMALS = new Conversions.DecimalConversion();
    /** Every money field has the same schema: {@code bytes}, {@code decimal(38, 12)}. */
    private static final Schema MONEY = AgentMetrics.SCHEMA$.getField("costTotal").schema();
    private static final LogicalType MONEY_TYPE = MONEY.getLogicalType();

    private AgentMetricsCoder() {
    }

    static void encode(AgentMetrics record, Encoder out) throws IOException {
        out.writeString(record.getAgentId());
        out.writeString(record.getModel());
        out.writeString(record.getProvider());
        NullableFields.writeLong(out, record.getWindowStart());
        NullableFields.writeLong(out, record.getWindowEnd());
        out.writeBoolean(record.getWindowClosed());
        writeCounts(out, record.getCompletions());
        out.writeLong(record.getAttempts());
        out.writeLong(record.getRetries());
        out.writeLong(record.getIgnoredFailures());
        writeCounts(out, record.getRetryCounts());
        writeCounts(out, record.getConfidenceBuckets());
        writeCounts(out, record.getDeadLetters());
        writeCounts(out, record.getFailuresByErrorCode());
        writeCounts(out, record.getContinuationStops());
        out.writeLong(record.getInputTokens());
        out.writeLong(record.getOutputTokens());
        out.writeLong(record.getCacheReadTokens());
        out.writeLong(record.getCacheWriteTokens());
        out.writeLong(record.getReasoningTokens());
        out.writeLong(record.getTotalTokens());
        out.writeLong(record.getApiCalls());
        writeMoney(out, record.getCostTotal());
        writeMoney(out, record.getCostInput());
        writeMoney(out, record.getCostOutput());
        writeMoney(out, record.getCostCacheRead());
        writeMoney(out, record.getCostCacheWrite());
        writeMoney(out, record.getCostReported());
        writeMoney(out, record.getCostComputed());
        out.writeBytes(record.getDurationSketch());
        out.writeLong(record.getDurationCount());
        out.writeLong(record.getDurationSumMs());
        NullableFields.writeLong(out, record.getDurationP50Ms());
        NullableFields.writeLong(out, record.getDurationP95Ms());
        NullableFields.writeLong(out, record.getDurationP99Ms());
        NullableFields.writeString(out, record.getTenant());
        NullableFields.writeString(out, record.getTeam());
        NullableFields.writeString(out, record.getUser());
        NullableFields.writeString(out, record.getTag());
        writeCounts(out, record.getGenAiHistograms());
    }

    /** Reads a record written with {@link AgentMetrics}'s own schema (resolved to itself). */
    static AgentMetrics decode(ResolvingDecoder in) throws IOException {
        FieldOrder.check(in);
        AgentMetrics record = new AgentMetrics();
        record.setAgentId(in.readString());
        record.setModel(in.readString());
        record.setProvider(in.readString());
        record.setWindowStart(NullableFields.readLong(in));
        record.setWindowEnd(NullableFields.readLong(in));
        record.setWindowClosed(in.readBoolean());
        record.setCompletions(readCounts(in));
        record.setAttempts(in.readLong());
        record.setRetries(in.readLong());
        record.setIgnoredFailures(in.readLong());
        record.setRetryCounts(readCounts(in));
        record.setConfidenceBuckets(readCounts(in));
        record.setDeadLetters(readCounts(in));
        record.setFailuresByErrorCode(readCounts(in));
        record.setContinuationStops(readCounts(in));
        record.setInputTokens(in.readLong());
        record.setOutputTokens(in.readLong());
        record.setCacheReadTokens(in.readLong());
        record.setCacheWriteTokens(in.readLong());
        record.setReasoningTokens(in.readLong());
        record.setTotalTokens(in.readLong());
        record.setApiCalls(in.readLong());
        record.setCostTotal(readMoney(in));
        record.setCostInput(readMoney(in));
        record.setCostOutput(readMoney(in));
        record.setCostCacheRead(readMoney(in));
        record.setCostCacheWrite(readMoney(in));
        record.setCostReported(readMoney(in));
        record.setCostComputed(readMoney(in));
        record.setDurationSketch(in.readBytes(null));
        record.setDurationCount(in.readLong());
        record.setDurationSumMs(in.readLong());
        record.setDurationP50Ms(NullableFields.readLong(in));
        record.setDurationP95Ms(NullableFields.readLong(in));
        record.setDurationP99Ms(NullableFields.readLong(in));
        record.setTenant(NullableFields.readString(in));
        record.setTeam(NullableFields.readString(in));
        record.setUser(NullableFields.readString(in));
        record.setTag(NullableFields.readString(in));
        record.setGenAiHistograms(readCounts(in));
        return record;
    }

    private static void writeMoney(Encoder out, BigDecimal value) throws IOException {
        out.writeBytes(DECIMALS.toBytes(value, MONEY, MONEY_TYPE));
    }

    private static BigDecimal readMoney(ResolvingDecoder in) throws IOException {
        return DECIMALS.fromBytes(in.readBytes(null), MONEY, MONEY_TYPE);
    }

    /** A {@code map<long>}, as Avro's writer lays it out (one block, then the end). */
    private static void writeCounts(Encoder out, Map<String, Long> counts) throws IOException {
        int size = counts.size();
        out.writeMapStart();
        out.setItemCount(size);
        int written = 0;
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            out.startItem();
            out.writeString(entry.getKey());
            out.writeLong(entry.getValue());
            written++;
        }
        out.writeMapEnd();
        if (written != size) {
            throw new ConcurrentModificationException("Size of map written was " + size + ", but number of entries written was "
                    + written + ".");
        }
    }

    /** As Avro's reader makes it: a {@link HashMap}, sized by the first block (bounded by the bytes left). */
    private static Map<String, Long> readCounts(ResolvingDecoder in) throws IOException {
        long block = in.readMapStart();
        Map<String, Long> counts = new HashMap<>((int) block);
        for (; block > 0; block = in.mapNext()) {
            for (long i = 0; i < block; i++) {
                counts.put(in.readString(), in.readLong());
            }
        }
        return counts;
    }
}

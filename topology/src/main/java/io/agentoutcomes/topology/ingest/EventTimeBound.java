package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * An input record's event time (its Kafka timestamp, which the producer sets) bounded by the wall clock: an agent's
 * clock is not trusted input. A timestamp more than the allowed skew ahead of the wall clock when the record is read is
 * replaced by the wall clock's time, the producer's own kept in the header {@value HeaderNames#PRODUCER_TIMESTAMP}, and
 * counted ({@value #SENSOR} in {@link InvalidInputException#METRICS_SCOPE}, per input topic). Without it one record
 * stamped 55 minutes ahead (a broker takes up to an hour) carried its task's time, and so every analytics window's
 * closing, 55 minutes ahead, and the windows of everything read on time after it were closed before their records came.
 * <p>
 * Applied as a record is taken from an input topic, JSON ({@code NormalizeProcessor}) or Avro ({@code AcceptInput}),
 * before any stage sees it; a timestamp in the past is the producer's business (analytics' grace decides). One instance
 * per processor; not thread-safe.
 */
public final class EventTimeBound {
    /** The sensor counting timestamps moved back to the wall clock: metrics {@code timestamps-clamped-total}, {@code -rate}. */
    public static final String SENSOR = "timestamps-clamped";
    private final long maxSkewMs;
    private Sensor clamped;

    public EventTimeBound(Duration maxSkew) {
        this.maxSkewMs = maxSkew.toMillis();
    }

    /** Registers the sensor for records read from {@code topic}. */
    public void init(ProcessingContext context, String topic) {
        clamped = context.metrics().addRateTotalSensor(InvalidInputException.METRICS_SCOPE, topic, SENSOR,
                Sensor.RecordingLevel.INFO);
    }

    /**
     * The timestamp a record read at {@code now} (wall clock) goes on with: its own, or {@code now} when its own is more
     * than the skew ahead; then {@code headers} (the record's outgoing headers, changed in place) say what the
     * producer's was, and the sensor counts it.
     */
    public long bound(long timestamp, long now, Headers headers) {
        if (timestamp - now <= maxSkewMs) {
            return timestamp;
        }
        headers.remove(HeaderNames.PRODUCER_TIMESTAMP);
        headers.add(HeaderNames.PRODUCER_TIMESTAMP, Instant.ofEpochMilli(timestamp).toString().getBytes(StandardCharsets.UTF_8));
        clamped.record();
        return now;
    }
}

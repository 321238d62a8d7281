package io.agentoutcomes.topology.ingest;

import java.time.Duration;

/**
 * How large one input record may be. Everything the pipeline writes for a record carries it once (a classified
 * outcome, a retry request, a rejected-input copy) plus a bounded few kilobytes (its identity, its headers, the
 * pipeline's own fields), so these keep every output under the producer's {@code max.request.size} (1 MiB by
 * default): with exactly-once, a record too large to write would abort its transaction again at every retry and stop
 * its partition for good, or end the process.
 *
 * @param maxRecordBytes an input value longer than this goes to {@code rejected-input}, reason {@code too-large},
 *                       without its value (a JSON value of exactly this length is taken; an Avro value may be
 *                       {@value #CANONICAL_ALLOWANCE_BYTES} bytes longer, see {@link #maxAvroRecordBytes()})
 * @param maxClockSkew   how far ahead of the wall clock an input record's timestamp (its event time) may be when it
 *                       is read; one further ahead is stamped with the wall clock instead, counted, and carries the
 *                       producer's stamp in a header ({@code EventTimeBound})
 */
public record InputLimits(int maxRecordBytes, Duration maxClockSkew) {
    /** The setting's name, also handed to the exception handlers through the streams configuration. */
    public static final String MAX_RECORD_BYTES_CONFIG = "input.max.record.bytes";
    public static final String MAX_CLOCK_SKEW_CONFIG = "input.max.clock.skew.ms";
    /**
     * Five minutes: far more than hosts kept by NTP drift apart (milliseconds), far less than the hour a broker takes
     * a timestamp ahead ({@code log.message.timestamp.after.max.ms}).
     */
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofMinutes(5);
    /**
     * The longest record key (UTF-8 bytes). Keys are task, job and agent ids: the classifier copies a key into a task
     * id, so a key of hundreds of kilobytes made outputs larger than the broker takes.
     */
    public static final int MAX_KEY_BYTES = 1024;
    /**
     * The longest identity or label (characters): result, agent, task, job and node ids, model and provider names.
     * Each is repeated in the outputs (ids in keys, outcomes and retries; model and provider in the analytics' keys
     * and aggregates), so each is bounded on its own.
     */
    public static final int MAX_ID_CHARS = 1024;
    /** The most header bytes (names and values together) an input record may carry. */
    public static final int MAX_HEADER_BYTES = 64 * 1024;
    /**
     * The largest attempt number or retry count: far beyond any policy (the default counts 0..4), and small enough that
     * no count derived from it ({@code nextAttempt}, failures in a row) can overflow.
     */
    public static final int MAX_ATTEMPT = 1_000_000;
    /**
     * How much longer than a JSON value its canonical Avro record may be: the identity taken from headers and the key,
     * the record's time, the wire format's header. Avro input topics take values up to the limit plus this, so every
     * JSON value ingestion takes is read again on the Avro topic it was written to.
     */
    public static final int CANONICAL_ALLOWANCE_BYTES = 16 * 1024;

    public InputLimits {
        if (maxRecordBytes < 1024) {
            throw new IllegalArgumentException(MAX_RECORD_BYTES_CONFIG + " must be at least 1024, was " + maxRecordBytes);
        }
        if (maxClockSkew.isNegative()) {
            throw new IllegalArgumentException(MAX_CLOCK_SKEW_CONFIG + " must be at least 0, was " + maxClockSkew.toMillis());
        }
    }

    /** A record size bound with the default clock skew. */
    public InputLimits(int maxRecordBytes) {
        this(maxRecordBytes, DEFAULT_MAX_CLOCK_SKEW);
    }

    /** 512 KiB: half the default request size, room for what outputs add; {@link #DEFAULT_MAX_CLOCK_SKEW}. */
    public static InputLimits defaults() {
        return new InputLimits(512 * 1024);
    }

    /** The longest value taken on an Avro input topic: {@link #maxRecordBytes} plus {@value #CANONICAL_ALLOWANCE_BYTES}. */
    public int maxAvroRecordBytes() {
        return maxRecordBytes + CANONICAL_ALLOWANCE_BYTES;
    }
}

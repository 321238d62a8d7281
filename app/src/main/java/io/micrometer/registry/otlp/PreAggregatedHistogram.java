package io.micrometer.registry.otlp;

import io.micrometer.core.instrument.AbstractMeter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

/**
 * A histogram whose buckets, count and sum are counted elsewhere (the service's exactly-once running totals) and set
 * here whole, for Micrometer's OTLP registry to push as a cumulative explicit-bucket histogram. In Micrometer's
 * package because its OTLP converter reads a cumulative meter's start time through the package's own
 * {@link StartTimeAwareMeter}; nothing else of the package is used. {@link #record} is refused: values are set, never
 * recorded one at a time.
 */
public final class PreAggregatedHistogram extends AbstractMeter implements DistributionSummary, StartTimeAwareMeter {
    private static final ValueAtPercentile[] NO_PERCENTILES = new ValueAtPercentile[0];

    private final long startTimeNanos;
    private volatile HistogramSnapshot snapshot = new HistogramSnapshot(0, 0, Double.NaN, NO_PERCENTILES,
            new CountAtBucket[0], null);

    public PreAggregatedHistogram(Id id, long startTimeNanos) {
        super(id);
        this.startTimeNanos = startTimeNanos;
    }

    /**
     * The histogram as it stands: {@code counts[i]} values at or below {@code bounds[i]} and above the bound before,
     * the last count above every bound; the maximum is not known (OTLP's is optional).
     */
    public void set(double[] bounds, long[] counts, double sum) {
        CountAtBucket[] buckets = new CountAtBucket[counts.length];
        long count = 0;
        for (int i = 0; i < counts.length; i++) {
            buckets[i] = new CountAtBucket(i < bounds.length ? bounds[i] : Double.POSITIVE_INFINITY, counts[i]);
            count += counts[i];
        }
        snapshot = new HistogramSnapshot(count, sum, Double.NaN, NO_PERCENTILES, buckets, null);
    }

    @Override
    public void record(double amount) {
        throw new UnsupportedOperationException(getId().getName() + " is set from totals counted elsewhere, not recorded");
    }

    @Override
    public long count() {
        return snapshot.count();
    }

    @Override
    public double totalAmount() {
        return snapshot.total();
    }

    @Override
    public double max() {
        return snapshot.max();
    }

    @Override
    public HistogramSnapshot takeSnapshot() {
        return snapshot;
    }

    @Override
    public long getStartTimeNanos() {
        return startTimeNanos;
    }
}

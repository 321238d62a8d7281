package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.OutcomeBucket;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RequestBudget;
import io.agentoutcomes.avro.serde.AvroModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * A scope's state as the gate reads it back from its store after a restart (Avro's own arrays, whose iterators cannot
 * remove): its evidence and budgets still expire. Before the fix, the restored state threw
 * UnsupportedOperationException on every check and the scope's held retries were never released again
 * (ProviderGateCrashIT: 22 of 80 paced retries held for good after a SIGKILL).
 */
class ProviderStateRestoredTest {
    private static final long NOW = 1_800_000_000_000L;

    private static ProviderState restored(ProviderState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
        new SpecificDatumWriter<>(ProviderState.getClassSchema(), AvroModel.SPECIFIC).write(state, encoder);
        encoder.flush();
        return new SpecificDatumReader<ProviderState>(ProviderState.getClassSchema(), ProviderState.getClassSchema(), AvroModel.SPECIFIC)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
    }

    private static ProviderState state(List<OutcomeBucket> buckets, List<RequestBudget> budgets) {
        return ProviderState.newBuilder().setProvider("acme").setModel("m1").setCircuit(CircuitState.CLOSED).setSince(NOW - 120_000)
                .setBuckets(new ArrayList<>(buckets)).setBudgets(new ArrayList<>(budgets)).build();
    }

    @Test
    void aRestoredCircuitForgetsEvidenceOlderThanItsWindow() throws IOException {
        ProviderState state = restored(state(List.of(new OutcomeBucket(NOW - 120_000, 30L, 30L), new OutcomeBucket(NOW - 10_000, 4L, 1L)),
                List.of()));

        assertThat(Circuit.evaluate(state, ProviderGateSettings.CircuitSettings.defaults(), NOW)).isEmpty();

        assertThat(state.getBuckets()).containsExactly(new OutcomeBucket(NOW - 10_000, 4L, 1L));
    }

    @Test
    void aRestoredBudgetWithoutALimitIsDroppedPastItsResetAndAnotherStillPaces() throws IOException {
        RequestBudget blockOnly = RequestBudget.newBuilder().setWindow("requests").setLimit(null).setLengthMs(60_000).setTokens(0)
                .setUpdatedAt(NOW - 30_000).setBlockedUntil(NOW - 1_000).setAdvertisedAt(NOW - 30_000).build();
        RequestBudget perMinute = RequestBudget.newBuilder().setWindow("requests_per_minute").setLimit(61L).setLengthMs(60_000)
                .setTokens(0).setUpdatedAt(NOW - 30_000).setBlockedUntil(0).setAdvertisedAt(NOW - 30_000).build();
        ProviderState state = restored(state(List.of(), List.of(blockOnly, perMinute)));

        // a check every 100 ms releases at most one of 61 a minute, refilled at 60 per 60.1 s: after 30 s idle, the
        // bucket holds one and a check's refill, not 30
        assertThat(RequestBudgets.allowance(state, NOW, 100)).isEqualTo(1);
        assertThat(state.getBudgets().get(0).getTokens()).isCloseTo(1 + 60 * 100 / 60_100.0, within(1e-9));
        assertThat(state.getBudgets()).extracting(RequestBudget::getWindow).containsExactly("requests_per_minute");
        RequestBudget left = state.getBudgets().get(0);
        left.setTokens(0);
        RequestBudgets.refill(left, NOW + 601, 100);
        assertThat(left.getTokens()).isCloseTo(0.6, within(1e-9));
    }
}

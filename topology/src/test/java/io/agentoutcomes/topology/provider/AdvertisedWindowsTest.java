package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.RateLimitWindow;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A provider's windows as they stand when read, from when the provider said them. */
class AdvertisedWindowsTest {
    private static final long SAID = 1_772_366_400_000L;
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static RateLimitWindow.Builder exhausted() {
        return RateLimitWindow.newBuilder().setName("requests").setResource("requests").setLimit(100L).setRemaining(0L);
    }

    private static RateLimitWindow read(RateLimitWindow said, long readAfterMs) {
        return AdvertisedWindows.asOf(List.of(said), SAID, SAID + readAfterMs, MINUTE).get(0);
    }

    @Test
    void readWhenSaidAWindowIsAsSaid() {
        RateLimitWindow said = exhausted().setResetsInMs(20_000L).build();
        assertThat(AdvertisedWindows.asOf(List.of(said), SAID, SAID, MINUTE)).containsExactly(said);
    }

    @Test
    void aWindowStillToResetSaysTheTimeLeftFromTheReading() {
        RateLimitWindow read = read(exhausted().setResetsInMs(20_000L).build(), 15_000);
        assertThat(read.getRemaining()).isZero();
        assertThat(read.getResetsInMs()).isEqualTo(5_000L);
        assertThat(read.getResetAtMs()).isNull();
        assertThat(read.getLimit()).isEqualTo(100L);
    }

    @Test
    void aWindowThatHasResetSinceSaysNothingOfWhatIsLeft() {
        RateLimitWindow read = read(exhausted().setResetsInMs(5_000L).build(), 15_000);
        assertThat(read.getRemaining()).isNull();
        assertThat(read.getResetsInMs()).isNull();
        assertThat(read.getLimit()).isEqualTo(100L);
    }

    @Test
    void aResetTimeBeyondTheWindowIsReadAsOneLengthAfterItWasSaid() {
        // a reset an hour off on a minute's window: at most the minute from when it was said, as the gate reads it
        assertThat(read(exhausted().setResetAtMs(SAID + 3_600_000).build(), 15_000).getResetsInMs()).isEqualTo(45_000L);
        assertThat(read(exhausted().setResetAtMs(SAID + 3_600_000).build(), 61_000).getRemaining()).isNull();
        // no reset said: one length (a minute here, by default)
        assertThat(read(exhausted().build(), 15_000).getResetsInMs()).isEqualTo(45_000L);
    }

    @Test
    void aWindowThatSaysNothingOfWhatIsLeftIsUnchanged() {
        RateLimitWindow said = RateLimitWindow.newBuilder().setName("requests").setResource("requests").setLimit(100L).build();
        assertThat(read(said, 15_000)).isSameAs(said);
    }
}

package dev.frontrun.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The layouts of RFC 9562: version, variant, and the counter where each version keeps its clock. */
class TimeOrderedUuidsTest {

    private static final UUID RANDOM = UUID.fromString("9f3c2b1a-5d4e-4f60-b7a8-1c2d3e4f5a6b");

    @Test
    void version7CarriesTheTickAsUnixMilliseconds() {
        UUID first = TimeOrderedUuids.of(7, 0, RANDOM);
        UUID later = TimeOrderedUuids.of(7, 5, RANDOM);

        assertThat(first.version()).isEqualTo(7);
        assertThat(first.variant()).isEqualTo(2);
        assertThat(first.getMostSignificantBits() >>> 16).isEqualTo(TimeOrderedUuids.START_MILLIS);
        assertThat(later.getMostSignificantBits() >>> 16).isEqualTo(TimeOrderedUuids.START_MILLIS + 5);
        assertThat(Long.compareUnsigned(later.getMostSignificantBits(), first.getMostSignificantBits()))
                .isPositive();
    }

    @Test
    void version1CarriesTheTickAsGregorianTime() {
        UUID uuid = TimeOrderedUuids.of(1, 3, RANDOM);

        assertThat(uuid.version()).isEqualTo(1);
        assertThat(uuid.variant()).isEqualTo(2);
        assertThat(uuid.timestamp())
                .as("100 ns since 1582-10-15")
                .isEqualTo((TimeOrderedUuids.START_MILLIS + 3) * 10_000L + 0x01B21DD213814000L);
    }

    @Test
    void version6IsVersion1sTimeMostSignificantFirst() {
        UUID v6 = TimeOrderedUuids.of(6, 3, RANDOM);
        long time = TimeOrderedUuids.of(1, 3, RANDOM).timestamp();
        long msb = v6.getMostSignificantBits();

        assertThat(v6.version()).isEqualTo(6);
        assertThat(v6.variant()).isEqualTo(2);
        assertThat((msb >>> 16) << 12 | msb & 0x0FFFL).isEqualTo(time);
        assertThat(Long.compareUnsigned(TimeOrderedUuids.of(6, 4, RANDOM).getMostSignificantBits(), msb))
                .isPositive();
    }

    @Test
    void theOtherBitsComeFromTheRandomUuid() {
        assertThat(TimeOrderedUuids.of(7, 0, RANDOM)).isNotEqualTo(TimeOrderedUuids.of(7, 0, UUID.randomUUID()));
        assertThat(TimeOrderedUuids.of(7, 0, RANDOM)).isEqualTo(TimeOrderedUuids.of(7, 0, RANDOM));
    }
}

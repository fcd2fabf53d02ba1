package dev.frontrun.hibernate;

import java.util.UUID;

/**
 * Time-based UUIDs (versions 1, 6 and 7) whose clock is a counter, so that they repeat in every execution.
 * The {@code n}th key a thread generates carries the {@code n}th tick after a fixed instant, and its
 * other bits come from the thread's repeatable random UUID. Keys one thread generates keep their order, as a clock
 * would give them; keys of different threads share ticks and are told apart by their random bits.
 */
final class TimeOrderedUuids {

    /** The clock's fixed start, 2025-01-01T00:00:00Z: the same in every execution, exploration, shard and replay. */
    static final long START_MILLIS = 1_735_689_600_000L;
    /** 100-nanosecond intervals from the Gregorian calendar's start (1582-10-15) to the Unix epoch. */
    private static final long GREGORIAN_TO_UNIX = 0x01B2_1DD2_1381_4000L;

    private static final long VARIANT_MASK = 0x3FFF_FFFF_FFFF_FFFFL;
    private static final long VARIANT = 0x8000_0000_0000_0000L;

    private TimeOrderedUuids() {}

    /** The UUID of {@code version} (1, 6 or 7) for tick {@code tick} (a millisecond each), random bits from {@code random}. */
    static UUID of(int version, long tick, UUID random) {
        long bits = random.getMostSignificantBits();
        long lsb = random.getLeastSignificantBits() & VARIANT_MASK | VARIANT; // clock sequence and node, or rand_b
        long millis = START_MILLIS + tick;
        return switch (version) {
            case 7 -> new UUID(millis << 16 | 0x7000L | bits & 0x0FFFL, lsb);
            case 6 -> {
                long time = gregorian(millis);
                yield new UUID((time >>> 12) << 16 | 0x6000L | time & 0x0FFFL, lsb);
            }
            case 1 -> {
                long time = gregorian(millis);
                yield new UUID(
                        (time & 0xFFFF_FFFFL) << 32 | (time >>> 32 & 0xFFFFL) << 16 | 0x1000L | time >>> 48 & 0x0FFFL,
                        lsb);
            }
            default -> throw new IllegalArgumentException("not a time-based UUID version: " + version);
        };
    }

    /** {@code millis} since the Unix epoch as the 60-bit count of 100-nanosecond intervals versions 1 and 6 carry. */
    private static long gregorian(long millis) {
        return millis * 10_000L + GREGORIAN_TO_UNIX;
    }
}

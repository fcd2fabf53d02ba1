package dev.frontrun;

/**
 * How an exploration picks its schedules: systematic DPOR or seeded random schedules.
 * DPOR runs every Mazurkiewicz trace once, the only strategy that can prove a property; random
 * schedules are a quick smoke test over the same scheduling points, reproducible by seed.
 */
public sealed interface Strategy permits Strategy.Dpor, Strategy.Random {

    static Strategy dpor() {
        return Dpor.INSTANCE;
    }

    static Strategy random(long seed, int attempts) {
        return new Random(seed, attempts);
    }

    /** Optimal dynamic partial-order reduction (Abdulla et al., JACM 2017). */
    final class Dpor implements Strategy {
        static final Dpor INSTANCE = new Dpor();

        private Dpor() {}

        @Override
        public String toString() {
            return "dpor";
        }
    }

    /** Uniformly random choice among runnable threads at every scheduling point. */
    record Random(long seed, int attempts) implements Strategy {
        public Random {
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
            }
        }

        @Override
        public String toString() {
            return "random(seed=" + seed + ", attempts=" + attempts + ")";
        }
    }
}

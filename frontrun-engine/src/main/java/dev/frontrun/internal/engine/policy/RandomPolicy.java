package dev.frontrun.internal.engine.policy;

import java.util.Random;

/**
 * Uniformly random schedules over the same scheduling points DPOR uses, for a fixed number of
 * attempts. One seeded generator drives all attempts, so the same seed gives the same schedules.
 * It can find failures but never prove their absence.
 */
public final class RandomPolicy implements SchedulePolicy {

    private final Random random;
    private final int attempts;
    private final Integer preemptionBound;
    private int done;
    private int preemptions;

    public RandomPolicy(long seed, int attempts, Integer preemptionBound) {
        this.random = new Random(seed);
        this.attempts = attempts;
        this.preemptionBound = preemptionBound;
    }

    @Override
    public int choose(Choice choice) {
        if (choice.position() == 0) {
            preemptions = 0;
        }
        int last = choice.lastThread();
        boolean lastRunnable = last >= 0 && choice.enabled()[last];
        if (lastRunnable && preemptionBound != null && preemptions >= preemptionBound) {
            return last;
        }
        int count = 0;
        for (boolean e : choice.enabled()) {
            count += e ? 1 : 0;
        }
        int pick = random.nextInt(count);
        for (int t = 0; t < choice.threadCount(); t++) {
            if (choice.enabled()[t] && pick-- == 0) {
                if (lastRunnable && t != last) {
                    preemptions++;
                }
                return t;
            }
        }
        throw new IllegalStateException("no enabled thread to pick");
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        return ++done < attempts;
    }

    @Override
    public boolean exhausted() {
        return false;
    }
}

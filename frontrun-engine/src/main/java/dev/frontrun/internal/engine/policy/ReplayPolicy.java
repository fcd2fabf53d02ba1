package dev.frontrun.internal.engine.policy;

import dev.frontrun.Schedule;

/**
 * Runs exactly one given schedule, {@code times} times. Past the schedule's end (a schedule cut
 * short by a failure) it keeps running the lowest-indexed runnable thread, which is what the
 * recorded execution would have done had it gone on.
 */
public final class ReplayPolicy implements SchedulePolicy {

    private final Schedule schedule;
    private final int times;
    private int done;

    public ReplayPolicy(Schedule schedule, int times) {
        this.schedule = schedule;
        this.times = times;
    }

    @Override
    public int choose(Choice choice) {
        int position = choice.position();
        if (position < schedule.length()) {
            return schedule.threadAt(position);
        }
        int last = choice.lastThread();
        return last >= 0 && choice.enabled()[last] ? last : choice.firstEnabled();
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        return ++done < times;
    }

    @Override
    public boolean exhausted() {
        return done >= times;
    }
}

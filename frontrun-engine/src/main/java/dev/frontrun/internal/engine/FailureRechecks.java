package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.internal.engine.policy.ReplayPolicy;
import dev.frontrun.internal.engine.policy.SerialPolicy;
import java.util.function.Consumer;

/**
 * Runs a failure's program again, to tell a race from a broken test and to say how often the failure reproduces.
 * Made for one exploration: whether the invariant throws serially is decided at its first throw.
 */
final class FailureRechecks {

    /** The most orders of the threads run one after the other to tell a broken invariant from a race (4 threads' all). */
    static final int SERIAL_ORDERS = 24;

    private final int threads;
    private final Consumer<Judged> told;
    private Boolean throwsSerially;

    /** Rechecks for {@code threads} threads; {@code told} hears of every replay. */
    FailureRechecks(int threads, Consumer<Judged> told) {
        this.threads = threads;
        this.told = told;
    }

    /**
     * Whether the invariant, which threw in an execution, throws also when the threads run one after the other from
     * the same start, in every order (at most {@link #SERIAL_ORDERS}): then it fails whatever the order, and the test
     * is broken. If one such run ends otherwise (most often: the invariant holds), the throw needed the interleaving.
     * Decided once, at the first throw.
     */
    boolean throwsSerially(Executions runs, long totalDeadline) {
        if (throwsSerially == null) {
            throwsSerially = runsSeriallyThrow(runs, totalDeadline);
        }
        return throwsSerially;
    }

    private boolean runsSeriallyThrow(Executions runs, long totalDeadline) {
        for (int[] order : SerialPolicy.orders(threads, SERIAL_ORDERS)) {
            if (!(runs.alone(new SerialPolicy(order), totalDeadline).failure() instanceof Failure.InvariantThrew)) {
                return false;
            }
        }
        return true;
    }

    /**
     * How many of {@code attempts} replays of {@code failing}'s schedule fail the same way; {@code serial}, when not
     * null, judges a replay whose invariant held.
     */
    int reproduce(Executions runs, Judged failing, int attempts, long totalDeadline, SerialOrders<?> serial) {
        ReplayPolicy replay = new ReplayPolicy(failing.record().schedule(), attempts);
        int same = 0;
        for (int i = 0; i < attempts; i++) {
            Judged again;
            try {
                again = runs.alone(replay, totalDeadline);
            } catch (SetupFailed e) {
                continue; // the setup failed on a replay: that replay did not reproduce
            }
            if (serial != null && again.failure() == null) {
                again = again.as(serial.judge(again));
            }
            told.accept(again);
            replay.executionEnded(again.record());
            if (again.failure() != null
                    && again.failure().kind() == failing.failure().kind()
                    && again.record().schedule().equals(failing.record().schedule())) {
                same++;
            }
        }
        return same;
    }
}

package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.SerialPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The serial runs a serializability check compares with: the threads one after the other, in every order, each from
 * the restored start. They run before exploring, and again when an execution observed more than they did (a table
 * none of them wrote). An execution whose observation is the same as none of theirs fails.
 */
final class SerialOrders<S> {

    private final SerialCheck<S> check;
    private final List<String> names;
    private final Consumer<Judged> told;
    private List<SerialCheck.SerialRun> runs = List.of();

    /** Runs for {@code check} of the threads {@code names}; {@code told} hears of every serial run, as a replay. */
    SerialOrders(SerialCheck<S> check, List<String> names, Consumer<Judged> told) {
        this.check = check;
        this.names = List.copyOf(names);
        this.told = told;
    }

    /**
     * Runs every order if no run so far covers what is observed now; the failure that makes the exploration an error
     * (a serial run that did not finish, a setup that threw), or null.
     */
    Failure ensure(Executions executions, long totalDeadline, ExplorationClock clock) {
        while (runs.isEmpty() || !runs.stream().allMatch(run -> check.current(run.observed()))) {
            long begin = System.nanoTime();
            List<SerialCheck.SerialRun> again = new ArrayList<>();
            List<int[]> orders = SerialPolicy.orders(names.size(), Integer.MAX_VALUE);
            int ran = 0;
            try {
                for (int[] order : orders) {
                    List<String> named = new ArrayList<>();
                    for (int thread : order) {
                        named.add(names.get(thread));
                    }
                    Judged judged = executions.alone(new SerialPolicy(order), totalDeadline);
                    ran++;
                    told.accept(judged);
                    if (judged.record().ending() != ExecutionRecord.Ending.COMPLETED) {
                        Failure failure = judged.failure();
                        return new Failure.Broken(
                                "the threads run one after the other in the order " + named,
                                new IllegalStateException(
                                        failure == null ? "it did not finish" : failure.summary(),
                                        failure == null ? null : failure.cause().orElse(null)));
                    }
                    if (judged.failure() instanceof Failure.Broken broken) {
                        return broken;
                    }
                    if (judged.observed() != null) {
                        again.add(new SerialCheck.SerialRun(named, judged.observed()));
                    }
                }
            } catch (SetupFailed e) {
                return new Failure.Broken("the setup", e.getCause());
            } finally {
                clock.serialRuns(ran, System.nanoTime() - begin);
            }
            runs = List.copyOf(again);
            if (runs.isEmpty()) {
                return null; // nothing observed to compare with
            }
        }
        return null;
    }

    /** The failure of {@code judged}, whose invariant held: null when a serial run observed the same. */
    Failure judge(Judged judged) {
        Object observed = judged.observed();
        if (observed == null || runs.isEmpty()) {
            return null;
        }
        for (SerialCheck.SerialRun run : runs) {
            if (check.same(observed, run.observed())) {
                return null;
            }
        }
        return check.notSerializable(observed, runs);
    }
}

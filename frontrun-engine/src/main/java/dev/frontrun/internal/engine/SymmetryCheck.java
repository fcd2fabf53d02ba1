package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.policy.SerialPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Proves, before exploring by symmetry, that the threads declared to run one body do the same. Each member runs first
 * from the restored start, the others after it; each member's steps must be the same, as the model tells steps apart.
 * A body that depends on which thread runs it (a counter it shares, the thread's name) would make an explored execution
 * stand for swapped ones it does not equal: the exploration is refused.
 */
final class SymmetryCheck {

    private final ExplorationPlan<?> plan;
    private final Consumer<Judged> told;

    /** A check of {@code plan}'s groups; {@code told} hears of every run, as a replay. */
    SymmetryCheck(ExplorationPlan<?> plan, Consumer<Judged> told) {
        this.plan = plan;
        this.told = told;
    }

    /** The failure that makes the exploration an error (members that did not do the same), or null. */
    Failure run(Executions executions, long totalDeadline) {
        try {
            for (List<Integer> group : plan.threads().symmetric()) {
                List<Object> firstSteps = null;
                List<TraceStep> firstTrace = null;
                for (int member : group) {
                    Judged judged = executions.alone(new SerialPolicy(memberFirst(member)), totalDeadline);
                    told.accept(judged);
                    List<TraceStep> trace = stepsOf(member, judged.record().trace());
                    List<Object> steps = trace.stream()
                            .map(t -> plan.model().sameStep().apply(t.thread(), t.step()))
                            .toList();
                    if (firstSteps == null) {
                        firstSteps = steps;
                        firstTrace = trace;
                    } else if (!steps.equals(firstSteps)) {
                        return differ(group.get(0), firstTrace, member, trace, firstSteps, steps);
                    }
                }
            }
            return null;
        } catch (SetupFailed e) {
            return new Failure.Broken("the setup", e.getCause());
        }
    }

    /** Every thread in declaration order, {@code member} moved to the front. */
    private int[] memberFirst(int member) {
        int threads = plan.threads().names().size();
        int[] order = new int[threads];
        order[0] = member;
        int next = 1;
        for (int t = 0; t < threads; t++) {
            if (t != member) {
                order[next++] = t;
            }
        }
        return order;
    }

    private static List<TraceStep> stepsOf(int thread, List<TraceStep> trace) {
        List<TraceStep> out = new ArrayList<>();
        for (TraceStep step : trace) {
            if (step.thread() == thread) {
                out.add(step);
            }
        }
        return out;
    }

    private Failure differ(
            int first,
            List<TraceStep> firstTrace,
            int other,
            List<TraceStep> otherTrace,
            List<Object> firstSteps,
            List<Object> otherSteps) {
        List<String> names = plan.threads().names();
        int at = 0;
        while (at < firstSteps.size()
                && at < otherSteps.size()
                && firstSteps.get(at).equals(otherSteps.get(at))) {
            at++;
        }
        String message = names.get(first) + " and " + names.get(other)
                + " were declared by threads(n, name, body) to run the same body, but each run first from the same"
                + " start they did not do the same: at its step " + (at + 1) + " " + names.get(first) + " ran "
                + shown(firstTrace, at) + " where " + names.get(other) + " ran " + shown(otherTrace, at)
                + ". Exploring one of the executions that swap them would not cover the other: a body must not depend"
                + " on which thread runs it (a counter the threads share, the thread's name); declare each with"
                + " thread(name, body)";
        return new Failure.Broken("the threads declared to run one body", new IllegalStateException(message));
    }

    private static String shown(List<TraceStep> trace, int at) {
        return at < trace.size() ? "`" + trace.get(at).step().label() + "`" : "nothing (it had ended)";
    }
}

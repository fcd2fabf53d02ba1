package dev.frontrun.oracle;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * What a Frontrun exploration of a program reaches: the program's threads declared in a given
 * order (twins as one group of {@code threads(2, name, body)}, where thread 0 stands in the order),
 * each on a connection of the wrapped data source (a {@link ReusedConnections} pool), and an
 * invariant that records every completed execution's {@link Outcome} and holds. An execution that ends as a DEADLOCK finding has
 * no final state; it counts as having reached {@link Outcome#DEADLOCK}.
 *
 * @param keys       the outcome keys reached
 * @param executions executions the exploration counted
 * @param completed  executions that ran to the end (the rest ended as deadlock findings, or as the {@code problem})
 * @param problem    why the exploration is not a complete answer (not exhausted, a thread threw, …), or null
 * @param serial     when the exploration checked {@code serializable()}: each database state a judged execution
 *                   committed ({@link OracleSchema#state}) and whether the engine found it one a serial order gives
 * @param symmetric  the groups of identical threads the exploration used ({@link Result#symmetric()})
 */
record ExploredOutcomes(
        List<Integer> order,
        Set<String> keys,
        int executions,
        int completed,
        String problem,
        Map<String, Boolean> serial,
        List<List<String>> symmetric) {

    ExploredOutcomes withProblem(String another) {
        return new ExploredOutcomes(
                order,
                keys,
                executions,
                completed,
                problem == null ? another : problem + "; " + another,
                serial,
                symmetric);
    }

    /** The per-execution state: one {@link ThreadRun} per program thread. */
    static final class Execution {
        final ThreadRun[] runs;

        Execution(Program program) {
            runs = new ThreadRun[program.threadCount()];
            for (int t = 0; t < runs.length; t++) {
                runs[t] = new ThreadRun(program.threads().get(t));
            }
        }

        /** Runs a thread's steps on one connection; one the scheduler interrupted is not reused. */
        void run(int thread, DataSource wrapped) throws SQLException {
            Connection c = wrapped.getConnection();
            boolean finished = false;
            try {
                ThreadRun run = runs[thread];
                while (!run.done()) {
                    run.runNext(c);
                }
                finished = true;
            } finally {
                if (finished) {
                    c.close();
                } else {
                    ReusedConnections.discard(c);
                }
            }
        }

        List<List<String>> results() {
            List<List<String>> out = new ArrayList<>();
            for (ThreadRun r : runs) {
                out.add(r.results());
            }
            return out;
        }
    }

    /**
     * Explores {@code program} from the initial data with the tables' {@code statistics} (which the exploration keeps
     * from run to run), threads declared in {@code order}; {@code tune} may restrict the exploration (the harness's own
     * test cripples it to show the check can fail).
     */
    static ExploredOutcomes explore(
            Program program,
            List<Integer> order,
            OracleSchema.Statistics statistics,
            DataSource raw,
            DataSource wrapped,
            Connection observer,
            Consumer<Exploration<?>> tune,
            boolean serializable)
            throws SQLException {
        OracleSchema.reset(observer, statistics);
        Set<String> keys = new LinkedHashSet<>();
        int[] completed = {0};
        SerialVerdicts verdicts = new SerialVerdicts();
        Exploration<Execution> exploration =
                Frontrun.explore(() -> new Execution(program)).database(raw);
        int declared = 0;
        for (int t : order) {
            if (program.twins() && t == 0) {
                // one body for threads 0 and 1: each member runs the thread program its place in the group names
                int first = declared;
                exploration.threads(2, "twin", s -> s.run(memberIndex() - first, wrapped));
                declared += 2;
            } else {
                exploration.thread("t" + t, s -> s.run(t, wrapped));
                declared++;
            }
        }
        if (serializable) {
            // the engine's own verdict, execution by execution, against the committed state recorded below
            exploration.serializable().hook(verdicts).checkAdvice(false);
        }
        exploration
                .invariant(
                        (s, outcomes) -> {
                            completed[0]++;
                            outcomes.all().stream()
                                    .filter(outcome -> outcome.thrown() != null)
                                    .forEach(outcome -> verdicts.problem(
                                            "thread " + outcome.thread() + " threw " + outcome.thrown()));
                            try {
                                String state = OracleSchema.state(observer);
                                verdicts.invariantSaw(state);
                                keys.add(new Outcome(state, s.results()).key(program.twins()));
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                            return true;
                        },
                        "records the outcome")
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .executionTimeout(Duration.ofSeconds(20))
                .totalTimeout(Duration.ofMinutes(5));
        tune.accept(exploration);
        Result result = exploration.run();
        String problem = verdicts.problem();
        Failure failure = result.failure().orElse(null);
        if (failure instanceof Failure.Deadlock || verdicts.sawDeadlock()) {
            keys.add(Outcome.DEADLOCK);
        }
        if (failure != null
                && !(failure instanceof Failure.Deadlock)
                && !(failure instanceof Failure.NotSerializable)) {
            problem = failure.kind() + ": " + failure.summary()
                    + failure.cause().map(c -> " (" + c + ")").orElse("");
        }
        if (problem == null && !result.exhausted()) {
            problem = "not exhausted: "
                    + result.inconclusiveBecause().orElse(result.verdict().toString());
        }
        if (problem == null && program.twins() && result.symmetric().isEmpty()) {
            problem = "the twins were declared by threads(2, name, body), but the exploration used no symmetry";
        }
        return new ExploredOutcomes(
                List.copyOf(order),
                keys,
                result.executions(),
                completed[0],
                problem,
                serializable ? verdicts.byState() : Map.of(),
                result.symmetric());
    }

    private static int memberIndex() {
        return SchedulingPoints.currentThreadIndex().orElseThrow();
    }

    /**
     * Pairs each execution's committed state (recorded by the invariant, which runs right after the hooks heard that
     * the execution completed) with how the engine judged it, and notes deadlocks and failures that are problems.
     * An execution equivalent to one already counted is told no failure: a state counts as serial only if no
     * execution committing it failed as not serializable.
     */
    static final class SerialVerdicts implements ExplorationHook {
        private final Map<ExecutionContext, String> states = new IdentityHashMap<>();
        private final Map<String, Boolean> byState = new LinkedHashMap<>();
        private ExecutionContext completing;
        private boolean deadlock;
        private String problem;

        @Override
        public void executionCompleted(ExecutionContext execution) {
            completing = execution;
        }

        void invariantSaw(String state) {
            if (completing != null) {
                states.put(completing, state);
                completing = null;
            }
        }

        @Override
        public void executionJudged(ExecutionContext execution, Optional<Failure> counted) {
            Failure failure = counted.orElse(null);
            if (failure instanceof Failure.Deadlock) {
                deadlock = true;
            } else if (failure != null && !(failure instanceof Failure.NotSerializable)) {
                problem(failure.kind() + ": " + failure.summary());
            }
            String state = states.remove(execution);
            if (state != null) {
                byState.merge(state, !(failure instanceof Failure.NotSerializable), Boolean::logicalAnd);
            }
        }

        void problem(String another) {
            problem = problem == null ? another : problem + "; " + another;
        }

        String problem() {
            return problem;
        }

        boolean sawDeadlock() {
            return deadlock;
        }

        Map<String, Boolean> byState() {
            return Map.copyOf(byState);
        }
    }
}

package dev.frontrun.oracle;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * What a Frontrun exploration of a program reaches: the program's threads declared in a given
 * order, each on a connection of the wrapped data source (a {@link ReusedConnections} pool), and an invariant that records every
 * completed execution's {@link Outcome} and holds. An execution that ends as a DEADLOCK finding has
 * no final state; it counts as having reached {@link Outcome#DEADLOCK}.
 *
 * @param keys       the outcome keys reached
 * @param executions executions the exploration counted
 * @param completed  executions that ran to the end (the rest ended as deadlock findings, or as the {@code problem})
 * @param problem    why the exploration is not a complete answer (not exhausted, a thread threw, …), or null
 */
record ExploredOutcomes(List<Integer> order, Set<String> keys, int executions, int completed, String problem) {

    ExploredOutcomes withProblem(String another) {
        return new ExploredOutcomes(
                order, keys, executions, completed, problem == null ? another : problem + "; " + another);
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
            Consumer<Exploration<?>> tune)
            throws SQLException {
        OracleSchema.reset(observer, statistics);
        Set<String> keys = new LinkedHashSet<>();
        int[] completed = {0};
        Exploration<Execution> exploration =
                Frontrun.explore(() -> new Execution(program)).database(raw);
        for (int t : order) {
            exploration.thread("t" + t, s -> s.run(t, wrapped));
        }
        exploration
                .invariant(
                        s -> {
                            completed[0]++;
                            try {
                                keys.add(new Outcome(OracleSchema.state(observer), s.results()).key());
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
        String problem = null;
        Failure failure = result.failure().orElse(null);
        if (failure instanceof Failure.Deadlock) {
            keys.add(Outcome.DEADLOCK);
        } else if (failure != null) {
            problem = failure.kind() + ": " + failure.summary()
                    + failure.cause().map(c -> " (" + c + ")").orElse("");
        }
        if (problem == null && !result.exhausted()) {
            problem = "not exhausted: "
                    + result.inconclusiveBecause().orElse(result.verdict().toString());
        }
        return new ExploredOutcomes(List.copyOf(order), keys, result.executions(), completed[0], problem);
    }
}

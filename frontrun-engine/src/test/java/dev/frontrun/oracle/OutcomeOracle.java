package dev.frontrun.oracle;

import dev.frontrun.Exploration;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The outcome oracle on one test database: for a program, the ground truth by brute force on the
 * server, then a Frontrun exploration in every thread declaration order. The check is that every
 * ground-truth outcome (by {@link Outcome#key()}) is reached by the exploration in every order.
 */
final class OutcomeOracle implements AutoCloseable {

    private final Sessions sessions;
    private final GroundTruth groundTruth;
    private final DataSource raw;
    private final ReusedConnections pool;
    private final DataSource wrapped;
    private final Connection observer;

    OutcomeOracle(TestDatabase db) throws SQLException {
        OracleSchema.create(db);
        this.sessions = new Sessions(db);
        this.groundTruth = new GroundTruth(sessions);
        this.raw = db.dataSource();
        this.pool = new ReusedConnections(raw);
        this.wrapped = FrontrunDataSource.wrap(pool);
        this.observer = db.connect();
    }

    Sessions sessions() {
        return sessions;
    }

    GroundTruth.Truth groundTruth(Program program) throws SQLException {
        return groundTruth.explore(program);
    }

    ProgramCheck check(Program program) throws SQLException {
        return check(program, exploration -> { });
    }

    /** Like {@link #check(Program)}, with every exploration restricted by {@code tune}. */
    ProgramCheck check(Program program, Consumer<Exploration<?>> tune) throws SQLException {
        long start = System.nanoTime();
        GroundTruth.Truth truth = groundTruth.explore(program);
        long truthDone = System.nanoTime();
        List<ExploredOutcomes> explorations = new ArrayList<>();
        for (List<Integer> order : orders(program.threadCount())) {
            ExploredOutcomes explored = ExploredOutcomes.explore(program, order, raw, wrapped, observer, tune);
            List<String> leftovers = Leftovers.terminate(observer, sessions.pids());
            explorations.add(leftovers.isEmpty() ? explored : explored.withProblem(String.join("; ", leftovers)));
        }
        long end = System.nanoTime();
        return new ProgramCheck(program, truth, explorations, (truthDone - start) / 1_000_000, (end - truthDone) / 1_000_000);
    }

    /** Every permutation of 0..n-1. */
    static List<List<Integer>> orders(int n) {
        List<List<Integer>> out = new ArrayList<>();
        permute(new ArrayList<>(), n, out);
        return out;
    }

    private static void permute(List<Integer> prefix, int n, List<List<Integer>> out) {
        if (prefix.size() == n) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (int t = 0; t < n; t++) {
            if (!prefix.contains(t)) {
                prefix.add(t);
                permute(prefix, n, out);
                prefix.remove(prefix.size() - 1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try (observer; pool) {
            sessions.close();
        }
    }
}

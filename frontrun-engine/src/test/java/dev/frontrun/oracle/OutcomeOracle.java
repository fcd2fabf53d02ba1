package dev.frontrun.oracle;

import dev.frontrun.Exploration;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The outcome oracle: for a program, the ground truth by brute force on the server, then a Frontrun
 * exploration in every thread declaration order. The check is that every ground-truth outcome (by
 * {@link Outcome#key()}) is reached by the exploration in every order. The ground truth runs in a
 * database of its own, so that nothing an exploration leaves behind can change it; sessions an
 * exploration leaves active in its database are reported with it ({@link Leftovers}).
 */
final class OutcomeOracle implements AutoCloseable {

    private final OracleSchema.Statistics statistics;
    private final TestDatabase truthDb;
    private final Sessions sessions;
    private final GroundTruth groundTruth;
    private final DataSource raw;
    private final ReusedConnections pool;
    private final DataSource wrapped;
    private final Connection observer;

    /** Explores on {@code db}; the ground truth gets a fresh database on the same server. */
    OutcomeOracle(TestDatabase db) throws SQLException {
        this(db, OracleSchema.Statistics.TRUNCATED);
    }

    /** Like {@link #OutcomeOracle(TestDatabase)}, every program starting with the tables' {@code statistics} on both sides. */
    OutcomeOracle(TestDatabase db, OracleSchema.Statistics statistics) throws SQLException {
        this.statistics = statistics;
        OracleSchema.create(db);
        this.truthDb = TestPostgres.freshDatabase(GroundTruth.class);
        OracleSchema.create(truthDb);
        this.sessions = new Sessions(truthDb);
        this.groundTruth = new GroundTruth(sessions, statistics);
        this.raw = db.dataSource();
        this.pool = new ReusedConnections(raw);
        this.wrapped = FrontrunDataSource.wrap(pool);
        this.observer = db.connect();
    }

    GroundTruth.Truth groundTruth(Program program) throws SQLException {
        return groundTruth.explore(program);
    }

    /**
     * The program's check; the first declaration order's exploration also checks {@code serializable()}, whose
     * verdicts {@link ProgramCheck#serialDisagreements} holds against the server's serial schedules.
     */
    ProgramCheck check(Program program) throws SQLException {
        return check(program, exploration -> {}, true);
    }

    /**
     * Like {@link #check(Program)}, with every exploration restricted by {@code tune} and no serializability check
     * (its serial runs would reach outcomes the restricted exploration is to miss).
     */
    ProgramCheck check(Program program, Consumer<Exploration<?>> tune) throws SQLException {
        return check(program, tune, false);
    }

    private ProgramCheck check(Program program, Consumer<Exploration<?>> tune, boolean serializable)
            throws SQLException {
        long start = System.nanoTime();
        GroundTruth.Truth truth = groundTruth.explore(program);
        long truthDone = System.nanoTime();
        List<ExploredOutcomes> explorations = new ArrayList<>();
        if (!truth.decided()) {
            return new ProgramCheck(program, truth, explorations, (truthDone - start) / 1_000_000, 0);
        }
        List<String> earlier = Leftovers.terminate(observer);
        boolean first = serializable;
        for (List<Integer> order : orders(program)) {
            // serializable() in the first declaration order only: its verdicts are checked once per program
            ExploredOutcomes explored =
                    ExploredOutcomes.explore(program, order, statistics, raw, wrapped, observer, tune, first);
            first = false;
            List<String> leftovers = Leftovers.terminate(observer);
            explorations.add(leftovers.isEmpty() ? explored : explored.withProblem(String.join("; ", leftovers)));
        }
        if (!earlier.isEmpty()) {
            explorations.set(
                    0,
                    explorations
                            .get(0)
                            .withProblem("before exploring, an earlier exploration's session" + " had become active: "
                                    + String.join("; ", earlier)));
        }
        long end = System.nanoTime();
        return new ProgramCheck(
                program, truth, explorations, (truthDone - start) / 1_000_000, (end - truthDone) / 1_000_000);
    }

    /** The program's declaration orders: of its threads, twins declared together as one group where thread 0 stands. */
    static List<List<Integer>> orders(Program program) {
        if (!program.twins()) {
            return orders(program.threadCount());
        }
        return orders(program.threadCount() - 1).stream()
                .map(order -> order.stream().map(t -> t == 0 ? 0 : t + 1).toList())
                .toList();
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
        try (observer;
                pool) {
            sessions.close();
        } finally {
            TestPostgres.drop(truthDb);
        }
    }
}

package dev.frontrun.bench;

import dev.frontrun.Access;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * Wall time of the same exhaustive explorations on 1, 2 and all cores' workers ({@code parallelism(n)}),
 * rounds interleaved in one process so the ratios share the machine's load; checks that every run counts
 * the same executions. Prints a table; see BENCHMARKS.md for the command and results. The JDBC rows run
 * over a pool, so that reusing connections (as the workers do) is not counted as parallelism; the unpooled
 * row shows what a data source that opens a connection per borrow costs.
 */
public final class ParallelExplorationBenchmark {

    private ParallelExplorationBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int cores = Runtime.getRuntime().availableProcessors();
        int[] workers = cores > 2 ? new int[] {1, 2, cores} : new int[] {1, 2};
        TestDatabase db = TestPostgres.freshDatabase(ParallelExplorationBenchmark.class);
        try {
            db.execute(
                    "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                    "CREATE TABLE audit (id serial PRIMARY KEY, account int NOT NULL, delta int NOT NULL)",
                    "INSERT INTO account VALUES (1, 100)");
            System.out.printf(
                    "cores: %d%n%-46s %8s %10s %10s %9s%n",
                    cores, "workload", "workers", "executions", "ms (best)", "speed-up");
            table("3 deposits, JDBC (read, update, audit, commit)", rounds, workers, n -> pooled(db, n, 3, 1));
            table("2 threads x 2 deposits, JDBC", rounds, workers, n -> pooled(db, n, 2, 2));
            table("2 threads x 3 deposits, JDBC", rounds, workers, n -> pooled(db, n, 2, 3));
            DataSource unpooled = db.dataSource();
            table(
                    "2 threads x 2 deposits, JDBC, unpooled",
                    rounds,
                    workers,
                    n -> deposits(unpooled, FrontrunDataSource.wrap(unpooled), 2, 2)
                            .parallelism(n)
                            .run());
            table(
                    "4 dining philosophers, plain Java",
                    rounds,
                    workers,
                    n -> philosophers(4).parallelism(n).run());
        } finally {
            TestPostgres.drop(db);
        }
    }

    private static void table(String name, int rounds, int[] workers, IntFunction<Result> run) {
        long[] best = new long[workers.length];
        int[] executions = new int[workers.length];
        Arrays.fill(best, Long.MAX_VALUE);
        for (int w = 0; w < workers.length; w++) {
            run.apply(workers[w]); // warm-up
        }
        for (int round = 0; round < rounds; round++) {
            for (int w = 0; w < workers.length; w++) {
                long start = System.nanoTime();
                Result result = run.apply(workers[w]);
                best[w] = Math.min(best[w], System.nanoTime() - start);
                executions[w] = result.executions();
                if (!result.exhausted()) {
                    throw new IllegalStateException(name + " was not exhausted: " + result.explanation());
                }
                if (executions[w] != executions[0]) {
                    throw new IllegalStateException(name + ": " + executions[w] + " executions on " + workers[w]
                            + " workers, " + executions[0] + " on one");
                }
            }
        }
        for (int w = 0; w < workers.length; w++) {
            System.out.printf(
                    Locale.ROOT,
                    "%-46s %8d %10d %10.0f %8.2fx%n",
                    name,
                    workers[w],
                    executions[w],
                    best[w] / 1e6,
                    (double) best[0] / best[w]);
        }
    }

    /**
     * An exploration over a HikariCP pool of its own, closed after it: the sequential run reuses its
     * connections as the workers reuse theirs, and no idle connection keeps the database from being copied.
     */
    private static Result pooled(TestDatabase db, int workers, int threads, int each) {
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(threads + 1);
        config.setMinimumIdle(0);
        config.setInitializationFailTimeout(-1);
        try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
            return deposits(pool, FrontrunDataSource.wrap(pool), threads, each)
                    .parallelism(workers)
                    .run();
        }
    }

    private static Exploration<Object> deposits(DataSource raw, DataSource ds, int threads, int each) {
        Exploration<Object> e = Frontrun.explore(Object::new)
                .database(raw)
                .stopOnFirstFailure(false)
                .reportDirectory(null)
                .checkAdvice(false)
                .progress(null, Duration.ofMinutes(1));
        for (int t = 0; t < threads; t++) {
            e.thread("deposit-" + t, () -> {
                for (int i = 0; i < each; i++) {
                    deposit(ds);
                }
            });
        }
        return e;
    }

    private static void deposit(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int balance;
            try (PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
                    ResultSet rs = read.executeQuery()) {
                rs.next();
                balance = rs.getInt(1);
            }
            try (PreparedStatement write = c.prepareStatement("UPDATE account SET balance = ? WHERE id = 1");
                    PreparedStatement audit = c.prepareStatement("INSERT INTO audit (account, delta) VALUES (1, 1)")) {
                write.setInt(1, balance + 1);
                write.executeUpdate();
                audit.executeUpdate();
            }
            c.commit();
        }
    }

    private static Exploration<Object> philosophers(int n) {
        Exploration<Object> e = Frontrun.explore(Object::new)
                .stopOnFirstFailure(false)
                .maxExecutions(1_000_000)
                .progress(null, Duration.ofMinutes(1));
        for (int i = 0; i < n; i++) {
            int left = i;
            int right = (i + 1) % n;
            e.thread("philosopher-" + i, s -> {
                Frontrun.access("fork-" + left, Access.WRITE);
                Frontrun.access("fork-" + right, Access.WRITE);
                Frontrun.access("fork-" + left, Access.WRITE);
                Frontrun.access("fork-" + right, Access.WRITE);
            });
        }
        return e;
    }
}

package dev.frontrun.bench;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Cost of the JDBC proxy outside an exploration: a simple prepared-query loop on one connection,
 * through the raw driver and through {@link FrontrunDataSource}, alternating rounds so that drift
 * of the machine hits both alike. Prints a table; see BENCHMARKS.md.
 */
public final class ProxyOverheadBenchmark {

    private ProxyOverheadBenchmark() {}

    public static void main(String[] args) throws SQLException {
        int queries = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        TestDatabase db = TestPostgres.freshDatabase(ProxyOverheadBenchmark.class);
        try {
            db.execute(
                    "CREATE TABLE item (id int PRIMARY KEY, name text)",
                    "INSERT INTO item SELECT g, 'item ' || g FROM generate_series(1, 100) g");
            DataSource raw = db.dataSource();
            DataSource proxied = FrontrunDataSource.wrap(raw);
            loop(raw, queries);
            loop(proxied, queries);
            double[] rawNs = new double[rounds];
            double[] proxiedNs = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                rawNs[r] = loop(raw, queries);
                proxiedNs[r] = loop(proxied, queries);
            }
            Arrays.sort(rawNs);
            Arrays.sort(proxiedNs);
            double rawMedian = rawNs[rounds / 2];
            double proxiedMedian = proxiedNs[rounds / 2];
            System.out.printf("%-34s %14s%n", "query loop (" + queries + " queries)", "µs / query");
            System.out.printf(Locale.ROOT, "%-34s %14.2f%n", "raw pgjdbc", rawMedian / 1e3);
            System.out.printf(
                    Locale.ROOT, "%-34s %14.2f%n", "FrontrunDataSource (no exploration)", proxiedMedian / 1e3);
            System.out.printf(Locale.ROOT, "overhead: %+.1f %%%n", (proxiedMedian / rawMedian - 1) * 100);
        } finally {
            TestPostgres.drop(db);
        }
    }

    /** Nanoseconds per query of a prepare-bind-execute-read loop on one connection. */
    private static double loop(DataSource ds, int queries) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT name FROM item WHERE id = ?")) {
            long start = System.nanoTime();
            int found = 0;
            for (int i = 0; i < queries; i++) {
                ps.setInt(1, 1 + i % 100);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        found++;
                    }
                }
            }
            if (found != queries) {
                throw new IllegalStateException("expected " + queries + " rows, got " + found);
            }
            return (System.nanoTime() - start) / (double) queries;
        }
    }
}

package dev.frontrun.bench;

import dev.frontrun.internal.postgres.DatabaseSnapshot;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The restore between two runs on a server configured as a user's would be (fsync and synchronous
 * commit on, unlike the test suite's tuned server): one row changed by the "run", then restored, many
 * times; prints the median and the 90th percentile. See BENCHMARKS.md for the command and results.
 */
public final class DurableRestoreBenchmark {

    private DurableRestoreBenchmark() {}

    public static void main(String[] args) throws IOException, SQLException {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        try (EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .start()) {
            DataSource ds = server.getPostgresDatabase();
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)");
                st.execute("INSERT INTO account SELECT g, 100 FROM generate_series(1, 100) g");
                double[] ms = new double[runs];
                try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(ds)) {
                    for (int i = 0; i < runs; i++) {
                        st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = " + (1 + i % 100));
                        long start = System.nanoTime();
                        snapshot.restoreChanged("before run " + i, Map.of());
                        ms[i] = (System.nanoTime() - start) / 1e6;
                    }
                    snapshot.restoreAllAndClose("at the end", Map.of());
                }
                Arrays.sort(ms);
                System.out.printf(
                        Locale.ROOT,
                        "restore of one changed row, fsync and synchronous_commit on, %d runs:"
                                + " median %.2f ms, p90 %.2f ms%n",
                        runs,
                        ms[runs / 2],
                        ms[runs * 9 / 10]);
            }
        }
    }
}

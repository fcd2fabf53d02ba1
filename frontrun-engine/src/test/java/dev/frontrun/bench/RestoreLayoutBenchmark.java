package dev.frontrun.bench;

import dev.frontrun.internal.postgres.DatabaseSnapshot;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The restore between two runs on the demo's PetClinic schema and data, one owner's city changed per "run": as a
 * superuser (the changed table emptied, vacuumed and filled again, its statistics put back) and as the tables'
 * owner without superuser rights (TRUNCATE of the changed table and the tables referencing it: owners, pets,
 * visits). Both put the rows back at the same heap places every time. Prints the median and 90th percentile per
 * restore, alternating the two roles; see BENCHMARKS.md for the command and results.
 */
public final class RestoreLayoutBenchmark {

    private RestoreLayoutBenchmark() {}

    public static void main(String[] args) throws IOException, SQLException {
        int explorations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Path demo = Path.of(args.length > 2 ? args[2] : "demo-petclinic/src/main/resources/db");
        try (EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                .start()) {
            DataSource superuser = server.getPostgresDatabase();
            try (Connection c = superuser.getConnection();
                    Statement st = c.createStatement()) {
                st.execute("CREATE ROLE app LOGIN PASSWORD 'app'");
                st.execute("CREATE DATABASE petclinic OWNER app");
            }
            PGSimpleDataSource owner = (PGSimpleDataSource) server.getDatabase("app", "petclinic");
            owner.setPassword("app");
            try (Connection c = owner.getConnection();
                    Statement st = c.createStatement()) {
                st.execute(Files.readString(demo.resolve("schema.sql")));
                st.execute(Files.readString(demo.resolve("data.sql")));
            }
            PGSimpleDataSource asSuperuser = (PGSimpleDataSource) server.getDatabase("postgres", "petclinic");
            System.out.printf(
                    Locale.ROOT,
                    "| restore as | snapshot ms | restore between runs: median ms | p90 ms"
                            + " | last restore ms | tables restored between runs |%n|---|---:|---:|---:|---:|---|%n");
            for (int round = 0; round < 2; round++) {
                measure("superuser (vacuum)", asSuperuser, owner, explorations, runs);
                measure("owner (TRUNCATE)", owner, owner, explorations, runs);
            }
        }
    }

    /** {@code explorations} snapshots of {@code runs} restores each: take, restore between runs, last restore. */
    private static void measure(String label, DataSource restorer, DataSource app, int explorations, int runs)
            throws SQLException {
        double[] take = new double[explorations];
        double[] last = new double[explorations];
        double[] between = new double[explorations * runs];
        String restored = "";
        try (Connection c = app.getConnection();
                Statement st = c.createStatement()) {
            for (int e = 0; e < explorations; e++) {
                long start = System.nanoTime();
                DatabaseSnapshot snapshot = DatabaseSnapshot.take(restorer);
                take[e] = (System.nanoTime() - start) / 1e6;
                for (int i = 0; i < runs; i++) {
                    st.executeUpdate("UPDATE owners SET city = 'run " + i + "' WHERE id = 1");
                    start = System.nanoTime();
                    restored = String.join(
                            ", ",
                            snapshot.restoreChanged("before run " + i, Map.of()).tables());
                    between[e * runs + i] = (System.nanoTime() - start) / 1e6;
                }
                st.executeUpdate("UPDATE owners SET city = 'last' WHERE id = 1");
                start = System.nanoTime();
                snapshot.restoreAllAndClose("at the end", Map.of());
                last[e] = (System.nanoTime() - start) / 1e6;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "| %s | %.1f | %.2f | %.2f | %.1f | %s |%n",
                label,
                median(take),
                median(between),
                percentile(between, 0.9),
                median(last),
                restored);
    }

    private static double median(double[] values) {
        return percentile(values, 0.5);
    }

    private static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) (sorted.length * p)];
    }
}

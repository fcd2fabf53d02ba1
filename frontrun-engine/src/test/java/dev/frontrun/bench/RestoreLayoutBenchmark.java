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

    private RestoreLayoutBenchmark() {
    }

    public static void main(String[] args) throws IOException, SQLException {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        Path demo = Path.of(args.length > 1 ? args[1] : "demo-petclinic/src/main/resources/db");
        try (EmbeddedPostgres server = EmbeddedPostgres.builder().setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off").setServerConfig("full_page_writes", "off").start()) {
            DataSource superuser = server.getPostgresDatabase();
            try (Connection c = superuser.getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE ROLE app LOGIN PASSWORD 'app'");
                st.execute("CREATE DATABASE petclinic OWNER app");
            }
            PGSimpleDataSource owner = (PGSimpleDataSource) server.getDatabase("app", "petclinic");
            owner.setPassword("app");
            try (Connection c = owner.getConnection(); Statement st = c.createStatement()) {
                st.execute(Files.readString(demo.resolve("schema.sql")));
                st.execute(Files.readString(demo.resolve("data.sql")));
            }
            PGSimpleDataSource asSuperuser = (PGSimpleDataSource) server.getDatabase("postgres", "petclinic");
            System.out.printf(Locale.ROOT, "| restore as | median ms | p90 ms | tables restored |%n|---|---:|---:|---|%n");
            for (int round = 0; round < 2; round++) {
                measure("superuser (vacuum)", asSuperuser, owner, runs);
                measure("owner (TRUNCATE)", owner, owner, runs);
            }
        }
    }

    private static void measure(String label, DataSource restorer, DataSource app, int runs) throws SQLException {
        double[] ms = new double[runs];
        String restored = "";
        try (Connection c = app.getConnection(); Statement st = c.createStatement()) {
            try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(restorer)) {
                for (int i = 0; i < runs; i++) {
                    st.executeUpdate("UPDATE owners SET city = 'run " + i + "' WHERE id = 1");
                    long start = System.nanoTime();
                    restored = String.join(", ", snapshot.restoreChanged("before run " + i, Map.of()).tables());
                    ms[i] = (System.nanoTime() - start) / 1e6;
                }
                snapshot.restoreAllAndClose("at the end", Map.of());
            }
        }
        Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %s |%n", label, ms[runs / 2], ms[runs * 9 / 10], restored);
    }
}

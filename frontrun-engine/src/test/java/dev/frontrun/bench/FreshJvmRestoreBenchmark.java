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

/**
 * The restore between runs as a test JVM meets it: from the JVM's start, snapshot after snapshot, so the first ones pay
 * for Frontrun's own code running interpreted (a test JVM explores a few hundred runs, too few for the JIT to compile
 * the restore's path early). Each run changes an owner and adds a pet (two tables and a sequence, as the demo's
 * requests do); prints the median restore of each snapshot, in order. Superuser on the demo's schema and data; see
 * BENCHMARKS.md for the command and results. Run it in a fresh JVM each time: its first lines are the point.
 */
public final class FreshJvmRestoreBenchmark {

    private FreshJvmRestoreBenchmark() {}

    public static void main(String[] args) throws IOException, SQLException {
        int snapshots = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path demo = Path.of(args.length > 2 ? args[2] : "demo-petclinic/src/main/resources/db");
        try (EmbeddedPostgres server = EmbeddedPostgres.builder().start()) {
            DataSource superuser = server.getPostgresDatabase();
            try (Connection c = superuser.getConnection();
                    Statement st = c.createStatement()) {
                st.execute(Files.readString(demo.resolve("schema.sql")));
                st.execute(Files.readString(demo.resolve("data.sql")));
                StringBuilder medians = new StringBuilder();
                for (int s = 0; s < snapshots; s++) {
                    DatabaseSnapshot snapshot = DatabaseSnapshot.take(superuser);
                    double[] restore = new double[runs];
                    for (int i = 0; i < runs; i++) {
                        st.executeUpdate("UPDATE owners SET city = 'run " + i + "' WHERE id = 1");
                        st.executeUpdate("INSERT INTO pets (name, birth_date, type_id, owner_id)" + " VALUES ('run " + i
                                + "', current_date, 1, 1)");
                        long start = System.nanoTime();
                        snapshot.restoreChanged("before run " + i, Map.of());
                        restore[i] = (System.nanoTime() - start) / 1e6;
                    }
                    snapshot.restoreAllAndClose("at the end", Map.of());
                    Arrays.sort(restore);
                    medians.append(String.format(Locale.ROOT, " %.2f", restore[runs / 2]));
                }
                System.out.println("restore between runs, median ms per snapshot, in order:" + medians);
            }
        }
    }
}

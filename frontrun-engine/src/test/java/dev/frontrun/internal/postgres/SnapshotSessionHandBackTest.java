package dev.frontrun.internal.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The snapshot's session runs as a replica while the snapshot lives, and is given back to a pool as it was handed out,
 * also for a user who may not set
 * {@code session_replication_role} (a parameter only a superuser, or a role granted SET on it, may set, even to the value
 * it already has).
 */
@ExtendWith(PostgresExtension.class)
class SnapshotSessionHandBackTest {

    private TestDatabase db;

    @BeforeEach
    void schema(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE",
                "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public");
    }

    @Test
    void anOrdinaryUsersPooledSessionGetsItsLockTimeoutAndIsolationBack() throws Exception {
        String role = "frontrun_plain_" + ProcessHandle.current().pid();
        db.execute(
                "CREATE ROLE " + role + " LOGIN PASSWORD 'pw'",
                "GRANT CREATE ON DATABASE " + db.name() + " TO " + role,
                "CREATE SCHEMA shop AUTHORIZATION " + role);
        PGSimpleDataSource owner = new PGSimpleDataSource();
        owner.setURL(db.jdbcUrl());
        owner.setUser(role);
        owner.setPassword("pw");
        try (Connection pooled = owner.getConnection()) {
            try (Statement st = pooled.createStatement()) {
                st.execute("CREATE TABLE shop.a (id int PRIMARY KEY, v int NOT NULL)");
                st.execute("INSERT INTO shop.a VALUES (1, 10)");
            }
            pooled.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(pool(pooled, owner), Duration.ofSeconds(5))) {
                try (Statement st = pooled.createStatement()) {
                    st.execute("UPDATE shop.a SET v = 0");
                }
                assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                        .containsExactly("shop.a");
            }
            assertThat(setting(pooled, "lock_timeout"))
                    .as("the pool's session, handed back")
                    .isEqualTo("0");
            assertThat(pooled.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            assertThat(setting(pooled, "session_replication_role")).isEqualTo("origin");
        } finally {
            db.execute("DROP SCHEMA shop CASCADE", "DROP OWNED BY " + role, "DROP ROLE " + role);
        }
    }

    @Test
    void theSessionRunsAsAReplicaAndIsGivenBackAsItWasHandedOut() throws SQLException {
        db.execute("CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL)", "INSERT INTO a VALUES (1, 10)");
        try (Connection pooled = db.dataSource().getConnection()) {
            try (DatabaseSnapshot snapshot =
                    DatabaseSnapshot.take(pool(pooled, db.dataSource()), Duration.ofSeconds(5))) {
                assertThat(setting(pooled, "session_replication_role"))
                        .as("while the snapshot lives")
                        .isEqualTo("replica");
                db.execute("UPDATE a SET v = 0 WHERE id = 1");
                snapshot.restoreChanged("in the test", Map.of());
            }
            assertThat(setting(pooled, "session_replication_role")).isEqualTo("origin");
            assertThat(setting(pooled, "lock_timeout")).isEqualTo("0");
        }
    }

    /** A pool of one connection: closing it hands it back, the session lives on. */
    private static DataSource pool(Connection pooled, DataSource target) {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (p, method, args) -> method.getName().equals("getConnection")
                        ? Proxy.newProxyInstance(
                                Connection.class.getClassLoader(),
                                new Class<?>[] {Connection.class},
                                (q, m, a) -> m.getName().equals("close") ? null : invoke(m, pooled, a))
                        : invoke(method, target, args));
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static String setting(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_setting('" + name + "')")) {
            rs.next();
            return rs.getString(1);
        }
    }
}

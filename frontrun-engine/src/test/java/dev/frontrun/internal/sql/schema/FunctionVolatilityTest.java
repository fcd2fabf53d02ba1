package dev.frontrun.internal.sql.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A function the classifier has no list entry for is what PostgreSQL declares it: an immutable built-in touches no
 * table, any other immutable or stable function writes none but may read any, and only a volatile one (or one not
 * known) stays a write of every table.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunctionVolatilityTest {

    private static final String READ_ALL = "READ sql:*";
    private static final String WRITE_ALL = "WRITE sql:*";

    private TestDatabase db;
    private SqlClassifier classifier;

    @BeforeAll
    void schema(TestDatabase db) {
        this.db = db;
        db.execute(
                "CREATE TABLE items (id int PRIMARY KEY, n int NOT NULL)",
                "CREATE FUNCTION total() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT sum(n) FROM items'",
                "CREATE FUNCTION twice(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1 * 2'",
                "CREATE FUNCTION bump() RETURNS int LANGUAGE sql AS 'UPDATE items SET n = n + 1 RETURNING n'",
                "CREATE FUNCTION mixed(int) RETURNS int LANGUAGE sql STABLE AS 'SELECT $1'",
                "CREATE FUNCTION mixed(text) RETURNS text LANGUAGE sql VOLATILE AS 'SELECT $1'",
                "CREATE FUNCTION add_up(int, int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1 + $2'",
                "CREATE FUNCTION add_noted(int, int) RETURNS int LANGUAGE sql AS 'SELECT $1 + $2'",
                "CREATE AGGREGATE pure_sum(int) (SFUNC = add_up, STYPE = int)",
                "CREATE AGGREGATE noisy_sum(int) (SFUNC = add_noted, STYPE = int)",
                "CREATE SCHEMA reports",
                "CREATE FUNCTION reports.total_due() RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint'");
        classifier = SqlClassifier.forDataSource(db.dataSource());
    }

    private List<String> accesses(String sql) {
        return classifier.classify(sql).bind(List.of()).accesses().stream()
                .map(ResourceAccess::toString)
                .sorted()
                .toList();
    }

    @Test
    void aStableFunctionReadsEveryTableAndWritesNone() {
        assertThat(accesses("SELECT total()")).contains(READ_ALL).doesNotContain(WRITE_ALL);
        assertThat(accesses("SELECT total() FROM items WHERE id = 1"))
                .as("the rest of the statement is still analysed")
                .containsExactly(READ_ALL, "READ sql:items:(1)", "WEAK_READ sql:items");
    }

    @Test
    void aVolatileFunctionStillWritesEveryTable() {
        assertThat(accesses("SELECT bump()")).containsExactly(WRITE_ALL);
        assertThat(accesses("SELECT total(), bump() FROM items WHERE id = 1")).containsExactly(WRITE_ALL);
    }

    @Test
    void anImmutableFunctionOfTheApplicationMayStillReadATable() {
        assertThat(accesses("SELECT twice(2)")).containsExactly(READ_ALL);
    }

    @Test
    void anImmutableBuiltInTouchesNoTableAndAStableOneReadsAll() {
        assertThat(accesses("SELECT numrange(1, 5) @> 3, jsonb_path_query('[1]', '$[*]')"))
                .isEmpty();
        assertThat(accesses("SELECT has_table_privilege('items', 'select')")).containsExactly(READ_ALL);
    }

    @Test
    void oneVolatileOverloadMakesTheNameVolatile() {
        assertThat(accesses("SELECT mixed(1)")).containsExactly(WRITE_ALL);
    }

    @Test
    void anAggregateIsAsVolatileAsItsSupportFunctions() {
        assertThat(accesses("SELECT pure_sum(n) FROM items"))
                .containsExactly(READ_ALL, "READ sql:items", "READ sql:items#members");
        assertThat(accesses("SELECT noisy_sum(n) FROM items")).containsExactly(WRITE_ALL);
    }

    @Test
    void aQualifiedCallIsLookedUpInItsSchemaAndABareOneInEveryOne() {
        assertThat(accesses("SELECT public.total()")).containsExactly(READ_ALL);
        assertThat(accesses("SELECT reports.total_due()")).containsExactly(WRITE_ALL);
        db.execute("CREATE SCHEMA other", "CREATE FUNCTION other.twice(int) RETURNS int LANGUAGE sql AS 'SELECT 2'");
        try {
            classifier.refreshSchema();
            assertThat(accesses("SELECT twice(2)"))
                    .as("some schema's twice() is volatile")
                    .containsExactly(WRITE_ALL);
            assertThat(accesses("SELECT public.twice(2)")).containsExactly(READ_ALL);
        } finally {
            db.execute("DROP SCHEMA other CASCADE");
            classifier.refreshSchema();
        }
    }

    @Test
    void aFunctionCreatedLaterIsKnownAfterTheSchemaIsReadAgain() {
        assertThat(accesses("SELECT later()")).containsExactly(WRITE_ALL);
        db.execute("CREATE FUNCTION later() RETURNS int LANGUAGE sql STABLE AS 'SELECT 1'");
        try {
            classifier.refreshSchema();
            assertThat(accesses("SELECT later()")).containsExactly(READ_ALL);
        } finally {
            db.execute("DROP FUNCTION later()");
            classifier.refreshSchema();
        }
    }

    @Test
    void aFunctionIsReadOnceAndThenWithEveryTableOnOneConnection() {
        AtomicInteger connections = new AtomicInteger();
        DataSource ds = db.dataSource();
        JdbcTableCatalog counted = new JdbcTableCatalog(new ConnectionSource() {
            @Override
            public Connection acquire() throws SQLException {
                connections.incrementAndGet();
                return ds.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                connection.close();
            }
        });
        SqlClassifier fresh = new SqlClassifier(counted);
        for (String sql : List.of("SELECT total()", "SELECT twice(1)", "SELECT mixed(1)", "SELECT n FROM items")) {
            fresh.classify(sql);
        }
        assertThat(connections)
                .as("every table, then each function name by itself")
                .hasValue(4);

        fresh.refreshSchema(); // as at an exploration's start
        assertThat(connections)
                .as("every table and every function name seen, on one connection")
                .hasValue(5);

        fresh.classify("SELECT total() + twice(1) + mixed(2)");
        assertThat(counted.function(null, "total")).isEqualTo(FunctionEffect.READS);
        assertThat(counted.function(null, "twice")).isEqualTo(FunctionEffect.READS);
        assertThat(counted.function(null, "mixed")).isEqualTo(FunctionEffect.WRITES);
        assertThat(connections).as("no name read again").hasValue(5);
        assertThat(counted.function("pg_catalog", "numrange")).isEqualTo(FunctionEffect.NONE);
        assertThat(counted.function(null, "numrange")).isEqualTo(FunctionEffect.NONE);
        assertThat(counted.function(null, "no_such_function")).isEqualTo(FunctionEffect.WRITES);
        assertThat(connections).hasValue(7);
    }
}

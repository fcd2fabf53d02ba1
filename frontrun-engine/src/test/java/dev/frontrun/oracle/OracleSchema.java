package dev.frontrun.oracle;

import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The one schema every generated program runs on, and its initial data. It holds what the model
 * finds hardest: a partial unique index, a cascading foreign key from a table keyed by a
 * {@code serial}, a key column with a constant default, a standalone sequence, a unique constraint and a foreign key
 * checked at {@code COMMIT} ({@code DEFERRABLE INITIALLY DEFERRED}), and user triggers (one changes the row written,
 * one counts the write in another table).
 *
 * <p>The planner's statistics of the tables are part of the initial state: they choose the plans, and a plan chooses
 * the predicate locks a SERIALIZABLE read takes, so which transaction a serialization failure dooms ({@link
 * Statistics}). Autovacuum is off on every table: an autoanalyze between a reset and a program's statements would give
 * one schedule of the ground truth an analyzed table's plans, which the exploration's database, planning as the reset
 * left it, never runs. (It did once: a sequential scan doomed a writer whose row no schedule of the exploration's
 * index scans doomed.)
 */
final class OracleSchema {

    /**
     * The planner's statistics of the tables when a program starts, and so its plans. A read by key on a table whose
     * statistics a {@code TRUNCATE} left is an index scan: a SERIALIZABLE transaction's predicate lock covers the row
     * (and the index page). On a one-page table {@code ANALYZE} measured, the planner scans the table: the lock covers
     * the relation, and the scan checks every row on the page against concurrent writers, so a read of one key
     * conflicts with a write of another.
     */
    enum Statistics {
        /** No pages and unknown rows, as every reset's {@code TRUNCATE} leaves them: the planner assumes ten pages. */
        TRUNCATED,
        /** Measured by {@code ANALYZE} after the reset: one page of a few rows each. */
        ANALYZED
    }

    /** The tables a reset fills, in one list for {@code TRUNCATE} and {@code ANALYZE}. */
    private static final String TABLES = "note, item, setting, pair, link, counted, tally";

    private static final String NO_AUTOVACUUM = " WITH (autovacuum_enabled = off)";

    private static final String[] DDL = {
        "DROP TABLE IF EXISTS note, item, setting, pair, counted, tally, link CASCADE",
        "DROP FUNCTION IF EXISTS counted_stamp(), counted_tally()",
        "DROP SEQUENCE IF EXISTS ticket",
        "CREATE TABLE item (id int PRIMARY KEY, v int NOT NULL, name text, deleted boolean NOT NULL DEFAULT false)"
                + NO_AUTOVACUUM,
        "CREATE UNIQUE INDEX item_live_name ON item (name) WHERE NOT deleted",
        "CREATE TABLE note (id serial PRIMARY KEY, item_id int NOT NULL REFERENCES item (id) ON DELETE CASCADE, body text)"
                + NO_AUTOVACUUM,
        "CREATE TABLE setting (name text PRIMARY KEY DEFAULT 'main', v int NOT NULL)" + NO_AUTOVACUUM,
        "CREATE SEQUENCE ticket",
        "CREATE TABLE pair (id int PRIMARY KEY, code int NOT NULL, CONSTRAINT pair_code UNIQUE (code)"
                + " DEFERRABLE INITIALLY DEFERRED)" + NO_AUTOVACUUM,
        "CREATE TABLE link (id int PRIMARY KEY, pair_id int NOT NULL REFERENCES pair (id) DEFERRABLE INITIALLY DEFERRED)"
                + NO_AUTOVACUUM,
        "CREATE TABLE counted (id int PRIMARY KEY, v int NOT NULL, changes int NOT NULL DEFAULT 0)" + NO_AUTOVACUUM,
        "CREATE TABLE tally (op text PRIMARY KEY, n int NOT NULL)" + NO_AUTOVACUUM,
        "CREATE FUNCTION counted_stamp() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN NEW.changes := OLD.changes + 1; RETURN NEW; END $$",
        "CREATE TRIGGER counted_stamp BEFORE UPDATE ON counted FOR EACH ROW EXECUTE FUNCTION counted_stamp()",
        "CREATE FUNCTION counted_tally() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN UPDATE tally SET n = n + 1 WHERE op = TG_OP; RETURN NULL; END $$",
        "CREATE TRIGGER counted_tally AFTER INSERT OR UPDATE ON counted FOR EACH ROW EXECUTE FUNCTION counted_tally()",
    };

    /** Back to the initial data: one round trip, tables emptied by TRUNCATE so no dead rows linger. */
    private static final String RESET = String.join(
            "; ",
            "TRUNCATE " + TABLES + " RESTART IDENTITY",
            "INSERT INTO item (id, v, name, deleted) VALUES (1, 10, 'a', false), (2, 20, 'b', false),"
                    + " (3, 30, 'c', true), (4, 40, 'c', false)",
            "INSERT INTO note (item_id, body) VALUES (1, 'n1'), (2, 'n2')",
            "INSERT INTO setting (name, v) VALUES ('other', 1)",
            "INSERT INTO pair (id, code) VALUES (1, 1), (2, 2)",
            "INSERT INTO link (id, pair_id) VALUES (1, 1)",
            // the counted rows before the tally's: their inserts' trigger finds no row to count in
            "INSERT INTO counted (id, v) VALUES (1, 10), (2, 20), (3, 30), (4, 40)",
            "INSERT INTO tally (op, n) VALUES ('INSERT', 0), ('UPDATE', 0)",
            "SELECT setval('ticket', 1, false)");

    private OracleSchema() {}

    /** Creates the schema on {@code db} and fills it with the initial data. */
    static void create(TestDatabase db) {
        db.execute(DDL);
        try (Connection c = db.connect()) {
            reset(c, Statistics.TRUNCATED);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Restores the initial data (tables and sequences) with {@code statistics}; {@code c} must be in autocommit mode. */
    static void reset(Connection c, Statistics statistics) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET lock_timeout = '10s'"); // a leftover lock holder fails the run instead of hanging it
            st.execute(RESET);
            if (statistics == Statistics.ANALYZED) {
                st.execute("ANALYZE " + TABLES);
            }
        }
    }

    /** The whole database state as one canonical line: every row of every table, sorted, and both sequences. */
    static String state(Connection c) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Statement st = c.createStatement()) {
            rows(st, "item", "SELECT id, v, name, deleted FROM item ORDER BY id", out);
            rows(st, "note", "SELECT id, item_id, body FROM note ORDER BY id", out);
            rows(st, "setting", "SELECT name, v FROM setting ORDER BY name", out);
            rows(st, "pair", "SELECT id, code FROM pair ORDER BY id", out);
            rows(st, "link", "SELECT id, pair_id FROM link ORDER BY id", out);
            rows(st, "counted", "SELECT id, v, changes FROM counted ORDER BY id", out);
            rows(st, "tally", "SELECT op, n FROM tally ORDER BY op", out);
            rows(st, "ticket", "SELECT last_value, is_called FROM ticket", out);
            rows(st, "note_id_seq", "SELECT last_value, is_called FROM note_id_seq", out);
        }
        return out.toString().trim();
    }

    private static void rows(Statement st, String name, String sql, StringBuilder out) throws SQLException {
        out.append(name);
        try (ResultSet rs = st.executeQuery(sql)) {
            out.append(rowsOf(rs));
        }
        out.append(' ');
    }

    /** A result set as {@code [(a,b),(c,d)]}, booleans as t/f and NULL as null. */
    static String rowsOf(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        StringBuilder out = new StringBuilder("[");
        boolean first = true;
        while (rs.next()) {
            out.append(first ? "(" : ",(");
            first = false;
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                Object value = rs.getObject(i);
                out.append(i > 1 ? "," : "")
                        .append(value instanceof Boolean b ? (b ? "t" : "f") : String.valueOf(value));
            }
            out.append(')');
        }
        return out.append(']').toString();
    }
}

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
 */
final class OracleSchema {

    private static final String[] DDL = {
        "DROP TABLE IF EXISTS note, item, setting, pair, counted, tally, link CASCADE",
        "DROP FUNCTION IF EXISTS counted_stamp(), counted_tally()",
        "DROP SEQUENCE IF EXISTS ticket",
        "CREATE TABLE item (id int PRIMARY KEY, v int NOT NULL, name text, deleted boolean NOT NULL DEFAULT false)",
        "CREATE UNIQUE INDEX item_live_name ON item (name) WHERE NOT deleted",
        "CREATE TABLE note (id serial PRIMARY KEY, item_id int NOT NULL REFERENCES item (id) ON DELETE CASCADE, body text)",
        "CREATE TABLE setting (name text PRIMARY KEY DEFAULT 'main', v int NOT NULL)",
        "CREATE SEQUENCE ticket",
        "CREATE TABLE pair (id int PRIMARY KEY, code int NOT NULL, CONSTRAINT pair_code UNIQUE (code)"
                + " DEFERRABLE INITIALLY DEFERRED)",
        "CREATE TABLE link (id int PRIMARY KEY, pair_id int NOT NULL REFERENCES pair (id) DEFERRABLE INITIALLY DEFERRED)",
        "CREATE TABLE counted (id int PRIMARY KEY, v int NOT NULL, changes int NOT NULL DEFAULT 0)",
        "CREATE TABLE tally (op text PRIMARY KEY, n int NOT NULL)",
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
            "TRUNCATE note, item, setting, pair, link, counted, tally RESTART IDENTITY",
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
            reset(c);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Restores the initial data (tables and sequences); {@code c} must be in autocommit mode. */
    static void reset(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET lock_timeout = '10s'"); // a leftover lock holder fails the run instead of hanging it
            st.execute(RESET);
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

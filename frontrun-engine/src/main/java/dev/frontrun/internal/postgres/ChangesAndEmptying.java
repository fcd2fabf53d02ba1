package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Starts a superuser's restore with one server-side call, saving a round trip and a transaction. The call says which
 * tables changed and which sequences moved. It also empties each changed table the restore may vacuum, if it can
 * lock it at once ({@code NOWAIT}: no other session holds any lock on it or its partitions, not even a reader's).
 * That is cheaper than asking {@code pg_locks}, which copies every backend's locks. It records such a table
 * in {@link EmptiedTables}, with how to fill it again, then deletes its rows. The session runs as a replica, so no
 * foreign-key trigger fires. The vacuum and the refill follow from the client. A table another session locks is left
 * to the refill's transaction: the vacuum would try for seconds to cut its pages off.
 */
final class ChangesAndEmptying {

    /** One table a restore may need to empty: how to fill it again, its copy, and its tracking sequence (null: none). */
    record Restorable(long oid, String refill, String copy, String tracker) {}

    /** What the call found and did; {@code schemaChanges} as {@link SchemaChanges} recorded them. */
    record Found(Set<Long> changedTables, Set<Long> movedSequences, Set<Long> emptied, List<String> schemaChanges) {}

    private static final String TABLE = DatabaseSnapshot.SCHEMA + ".restorable";
    /**
     * The tables written since the last restore that filled them. Their tracking sequence moved past the value that
     * restore saw ({@code seen}), as a query of {@code relid}s.
     */
    static final String WRITTEN = "(SELECT r.relid FROM " + TABLE + " r WHERE r.tracker IS NOT NULL"
            + " AND pg_catalog.pg_sequence_last_value(r.tracker) IS DISTINCT FROM r.seen) w";

    private static final String FUNCTION = DatabaseSnapshot.SCHEMA + ".changes_and_emptying";

    private ChangesAndEmptying() {}

    /**
     * The table of restorable tables and the function, created with the snapshot's schema. No {@code SET} clause on the
     * function: it would undo at its exit the transaction-local settings the commit must still see (everything it
     * calls is schema-qualified instead).
     *
     * @param sequences     the table of the sequences' values as found
     * @param restoring     the transaction-local setting that keeps the tracking triggers quiet for the listed tables
     */
    static String create(String sequences, String restoring) {
        return String.join(
                ";\n",
                "CREATE TABLE " + TABLE + " (ord int NOT NULL, relid oid NOT NULL, refill text NOT NULL,"
                        + " copy regclass NOT NULL, rows bigint NOT NULL, tracker regclass, seen bigint)",
                "CREATE FUNCTION " + FUNCTION + "(vacuumable oid[], everything boolean)"
                        + " RETURNS TABLE (kind int, id oid, what text) LANGUAGE plpgsql AS $$\n"
                        + "DECLARE\n"
                        + "  changed oid[] := CASE WHEN everything THEN ARRAY(SELECT r.relid FROM " + TABLE + " r)"
                        + " ELSE ARRAY(SELECT w.relid FROM " + WRITTEN + ") END;\n"
                        + "  emptying oid[];\n"
                        + "  t record;\n"
                        + "BEGIN\n"
                        + "  RETURN QUERY " + SchemaChanges.asCallRows() + ";\n"
                        + "  RETURN QUERY SELECT 0, pg_catalog.unnest(changed), NULL::text;\n"
                        + "  RETURN QUERY SELECT 1, s.seq, NULL::text FROM " + sequences + " s"
                        + " WHERE pg_catalog.pg_sequence_last_value(s.seq::pg_catalog.regclass)"
                        + " IS DISTINCT FROM CASE WHEN s.is_called THEN s.last_value END;\n"
                        + "  emptying := ARRAY(SELECT r.relid FROM " + TABLE + " r WHERE r.relid = ANY (changed)"
                        + " AND r.relid = ANY (vacuumable) ORDER BY r.ord);\n"
                        + "  IF pg_catalog.cardinality(emptying) = 0 THEN RETURN; END IF;\n"
                        + "  PERFORM pg_catalog.set_config('synchronous_commit', 'off', true),"
                        + " pg_catalog.set_config('" + restoring + "',"
                        + " ',' || pg_catalog.array_to_string(emptying, ',') || ',', true),"
                        + " pg_catalog.set_config('track_counts', 'off', true);\n"
                        + "  FOR t IN SELECT r.relid, r.refill, r.copy, r.rows FROM " + TABLE
                        + " r WHERE r.relid = ANY (emptying)"
                        + " ORDER BY r.ord LOOP\n"
                        + "    BEGIN\n"
                        + "      EXECUTE 'LOCK TABLE ' || t.relid::pg_catalog.regclass::text"
                        + " || ' IN ACCESS EXCLUSIVE MODE NOWAIT';\n"
                        + "    EXCEPTION WHEN lock_not_available THEN\n"
                        + "      CONTINUE;\n"
                        + "    END;\n"
                        // once per table: one a blocked restore left empty is emptied again by the next, filled once
                        + "    IF NOT EXISTS (SELECT 1 FROM " + EmptiedTables.TABLE
                        + " e WHERE e.relid = t.relid) THEN\n"
                        + "      INSERT INTO " + EmptiedTables.TABLE + " VALUES (t.relid, t.refill, t.copy, t.rows);\n"
                        + "    END IF;\n"
                        + "    EXECUTE 'DELETE FROM ' || t.relid::pg_catalog.regclass::text;\n"
                        + "    RETURN QUERY SELECT 3, t.relid, NULL::text;\n"
                        + "  END LOOP;\n"
                        + "END $$");
    }

    /**
     * Registers the tables, in the order they are emptied (referenced tables first), each with its copy's row count,
     * counted once. A copy never changes, and the emptied tables' record needs the count at every emptying.
     */
    static String register(List<Restorable> tables) {
        StringBuilder sql = new StringBuilder("INSERT INTO " + TABLE + " VALUES ");
        for (int i = 0; i < tables.size(); i++) {
            Restorable t = tables.get(i);
            sql.append(i == 0 ? "" : ", ")
                    .append("(")
                    .append(i)
                    .append(", ")
                    .append(t.oid())
                    .append(", '")
                    .append(t.refill().replace("'", "''"))
                    .append("', '")
                    .append(t.copy())
                    .append("', (SELECT count(*) FROM ")
                    .append(t.copy())
                    .append("), ")
                    .append(t.tracker() == null ? "NULL" : "'" + t.tracker() + "'")
                    .append(", NULL)");
        }
        return sql.toString();
    }

    /**
     * In a restore's transaction that fills the tables {@code oids} (comma-separated) again: what their tracking
     * sequences say now is what the next restore compares with. Transactional, unlike the sequences: a fill that rolls
     * back leaves the tables written.
     */
    static String seen(String oids) {
        return "UPDATE " + TABLE + " SET seen = pg_catalog.pg_sequence_last_value(tracker) WHERE tracker IS NOT NULL"
                + " AND relid = any('{" + oids + "}'::oid[])";
    }

    /**
     * Calls the function in autocommit: one transaction, committed when it returns.
     *
     * @param vacuumable the tables it may empty (when changed and locked by no other session)
     * @param everything take every table for changed (a snapshot that tracks no writes)
     */
    static Found call(Connection c, Set<Long> vacuumable, boolean everything) throws SQLException {
        Set<Long> changed = new LinkedHashSet<>();
        Set<Long> moved = new LinkedHashSet<>();
        Set<Long> emptied = new LinkedHashSet<>();
        List<String> schemaChanges = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT kind, id, what FROM " + FUNCTION + "(?::oid[], ?)")) {
            st.setString(1, vacuumable.stream().map(String::valueOf).collect(Collectors.joining(",", "{", "}")));
            st.setBoolean(2, everything);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    switch (rs.getInt(1)) {
                        case 0 -> changed.add(rs.getLong(2));
                        case 1 -> moved.add(rs.getLong(2));
                        case 4 -> schemaChanges.add(rs.getString(3));
                        default -> emptied.add(rs.getLong(2));
                    }
                }
            }
        }
        return new Found(changed, moved, emptied, schemaChanges);
    }
}

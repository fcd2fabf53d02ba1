package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The record of tables a restore emptied and has not filled again yet ({@value #TABLE}). A restore empties a table
 * (committed), vacuums it, then fills it in another transaction, and should that fail or the JVM die in between,
 * the next snapshot must fill the table from the copy before it drops the old snapshot's schema, or the rows are lost.
 */
final class EmptiedTables {

    static final String TABLE = DatabaseSnapshot.SCHEMA + ".emptied";
    /** Created with the snapshot's schema; {@link ChangesAndEmptying} records a table here when it empties it. */
    static final String CREATE = "CREATE TABLE " + TABLE + " (relid oid NOT NULL, refill text NOT NULL,"
            + " copy regclass NOT NULL, rows bigint NOT NULL)";
    /** Run in the transaction that fills {@code tables} again: they no longer stand empty. */
    static String filled(Collection<Long> tables) {
        return "DELETE FROM " + TABLE + " WHERE relid = any('{"
                + tables.stream().map(String::valueOf).collect(Collectors.joining(",")) + "}'::oid[])";
    }

    private EmptiedTables() {}

    /**
     * Fills again the tables a restore emptied and could not fill (its refill failed, the JVM died): dropping the
     * snapshot's schema would lose their rows. Refuses, loudly, when a copy lost its rows (someone emptied it) or the
     * refill fails again. Runs in the transaction of the next snapshot, or of the closing one, that drops the schema.
     */
    static void refillLeftovers(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet exists = st.executeQuery("SELECT to_regclass('" + TABLE + "')")) {
            if (!exists.next() || exists.getString(1) == null) {
                return;
            }
        }
        List<String> refills = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT DISTINCT ON (relid) refill, copy::text, rows FROM " + TABLE + " ORDER BY relid")) {
            while (rs.next()) {
                refills.add(rs.getString(1));
                checkCopy(c, rs.getString(2), rs.getLong(3));
            }
        }
        if (refills.isEmpty()) {
            return;
        }
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL session_replication_role = replica;\n" + String.join(";\n", refills));
        } catch (SQLException e) {
            throw new SQLException(
                    "A restore of Frontrun's emptied tables and could not fill them again;"
                            + " filling them now failed too (" + e.getMessage() + "). Their rows are in schema "
                            + DatabaseSnapshot.SCHEMA + " (" + TABLE
                            + " says how to fill each); Frontrun will not drop it.",
                    e.getSQLState(),
                    e);
        }
    }

    private static void checkCopy(Connection c, String copy, long rows) throws SQLException {
        try (Statement count = c.createStatement();
                ResultSet held = count.executeQuery("SELECT count(*) FROM " + copy)) {
            held.next();
            if (held.getLong(1) != rows) {
                throw new SQLException("A restore of Frontrun's emptied a table and could not fill it again, and its"
                        + " copy " + copy + " lost its rows (" + held.getLong(1) + " of " + rows + "). Frontrun leaves"
                        + " schema " + DatabaseSnapshot.SCHEMA
                        + " as it is; restore the table from elsewhere, then DROP SCHEMA " + DatabaseSnapshot.SCHEMA
                        + " CASCADE.");
            }
        }
    }
}

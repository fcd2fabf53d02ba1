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
 * Keeps autovacuum and autoanalyze off the snapshot's tables while an exploration runs ({@code autovacuum_enabled =
 * off} on each table, partition and TOAST table), and puts each table's own setting back at the end. The explored
 * code's writes count towards their thresholds (the restores' do not): after a few dozen runs an autoanalyze would
 * rewrite {@code pg_statistic} in the middle of the exploration, and the planner could then scan the rows in another
 * order (other locks first, another outcome) than in the runs before; an autovacuum would move rows on the pages. No
 * schedule decides when that happens, so a schedule could stop replaying and an outcome go unexplored.
 *
 * <p>What each relation had is recorded in {@value #TABLE}, in the transaction that switches it off, as the statement
 * that puts it back: the last restore and {@link DatabaseSnapshot#close()} run them before dropping Frontrun's schema,
 * and should the JVM die first, the next snapshot runs them before anything else.
 */
final class AutovacuumPause {

    static final String TABLE = DatabaseSnapshot.SCHEMA + ".autovacuum";
    /** Created with the snapshot's schema. */
    static final String CREATE = "CREATE TABLE " + TABLE + " (relid oid NOT NULL, actions text NOT NULL)";
    /**
     * Puts every recorded relation's own setting back (run before Frontrun's schema is dropped), naming it by its oid
     * as it is called now (it may have been renamed since); a relation dropped since is skipped.
     */
    static final String RESUME = "DO $$ DECLARE r record; BEGIN FOR r IN SELECT a.relid, a.actions FROM " + TABLE
            + " a WHERE EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = a.relid) LOOP"
            + " EXECUTE format('ALTER TABLE ONLY %s %s', r.relid::regclass, r.actions); END LOOP; END $$";

    private static final String OPTION = "autovacuum_enabled";

    private AutovacuumPause() {}

    /**
     * Records how to put back each of {@code relations} that has storage (the table, not a partitioned parent) and
     * switches autovacuum off for it and its TOAST table, in the caller's transaction.
     */
    static void pause(Connection c, Collection<Long> relations) throws SQLException {
        if (relations.isEmpty()) {
            return;
        }
        List<String> statements = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT c.oid,"
                        + " quote_ident(n.nspname) || '.' || quote_ident(c.relname), " + setting("c") + ", "
                        + setting("t")
                        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " LEFT JOIN pg_class t ON t.oid = c.reltoastrelid"
                        + " WHERE c.relkind = 'r' AND c.oid = any('{"
                        + relations.stream().map(String::valueOf).collect(Collectors.joining(","))
                        + "}'::oid[]) ORDER BY c.oid")) {
            while (rs.next()) {
                String relation = rs.getString(2);
                String resume = resume(rs.getString(3), rs.getString(4));
                statements.add("INSERT INTO " + TABLE + " VALUES (" + rs.getLong(1) + ", '" + resume.replace("'", "''")
                        + "')");
                statements.add(
                        "ALTER TABLE ONLY " + relation + " SET (" + OPTION + " = off, toast." + OPTION + " = off)");
            }
        }
        if (!statements.isEmpty()) {
            try (Statement st = c.createStatement()) {
                st.execute(String.join(";\n", statements));
            }
        }
    }

    /** The setting as the relation's options say it, or null when they do not set it. */
    private static String setting(String relation) {
        return "(SELECT option_value FROM pg_options_to_table(" + relation + ".reloptions) WHERE option_name = '"
                + OPTION + "')";
    }

    /** The {@code ALTER TABLE} actions that give a table and its TOAST table back their own settings. */
    private static String resume(String own, String toast) {
        List<String> set = new ArrayList<>();
        List<String> reset = new ArrayList<>();
        (own == null ? reset : set).add(OPTION + (own == null ? "" : " = '" + own.replace("'", "''") + "'"));
        (toast == null ? reset : set)
                .add("toast." + OPTION + (toast == null ? "" : " = '" + toast.replace("'", "''") + "'"));
        List<String> actions = new ArrayList<>();
        if (!reset.isEmpty()) {
            actions.add("RESET (" + String.join(", ", reset) + ")");
        }
        if (!set.isEmpty()) {
            actions.add("SET (" + String.join(", ", set) + ")");
        }
        return String.join(", ", actions);
    }

    /**
     * Puts back what an earlier exploration switched off and could not put back (the JVM died before its last
     * restore). Run by the next snapshot, in its transaction, before it drops the old schema.
     */
    static void resumeLeftovers(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet exists = st.executeQuery("SELECT to_regclass('" + TABLE + "')")) {
            if (!exists.next() || exists.getString(1) == null) {
                return;
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute(RESUME);
        }
    }
}

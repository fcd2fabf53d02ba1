package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Schema changes made while a snapshot lasts, by anyone. A restore puts back the rows and sequences of the tables the
 * snapshot found, never a table created, altered or dropped since (nor a materialized view refreshed, an index built),
 * so the executions after such a change would not start from the database the first one met. Two event triggers
 * record every committed change of a non-temporary object in a table of Frontrun's schema (transactional: a change
 * rolled back is no change), and the restore's first call reports them ({@link ChangesAndEmptying}).
 *
 * <p>Only for a superuser, who alone may create event triggers; Frontrun's own session runs as a replica, where event
 * triggers of the default kind do not fire, so its own DDL is never recorded. The functions go with Frontrun's schema,
 * and the event triggers with them.
 */
final class SchemaChanges {

    /** The changes recorded: the command and, where it names one, the object, as PostgreSQL identifies it. */
    static final String TABLE = DatabaseSnapshot.SCHEMA + ".schema_changes";

    private static final String RECORD_CHANGE = DatabaseSnapshot.SCHEMA + ".record_schema_change";
    private static final String RECORD_DROP = DatabaseSnapshot.SCHEMA + ".record_drop";
    /** Database-wide names (event triggers belong to no schema). */
    private static final String ON_CHANGE = "frontrun_snapshot_schema_changes";

    private static final String ON_DROP = "frontrun_snapshot_drops";

    private SchemaChanges() {}

    /** The table and the functions, created with the snapshot's schema (any user may create them). */
    static String create() {
        return String.join(
                ";\n",
                "CREATE TABLE " + TABLE + " (command text NOT NULL, object text)",
                "CREATE FUNCTION " + RECORD_CHANGE + "() RETURNS event_trigger LANGUAGE plpgsql SECURITY DEFINER"
                        + " SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
                        + " INSERT INTO " + TABLE + " SELECT d.command_tag, d.object_identity"
                        + " FROM pg_event_trigger_ddl_commands() d"
                        + " WHERE d.schema_name IS NULL OR d.schema_name NOT LIKE 'pg\\_temp%';"
                        + " END $$",
                "CREATE FUNCTION " + RECORD_DROP + "() RETURNS event_trigger LANGUAGE plpgsql SECURITY DEFINER"
                        + " SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
                        + " INSERT INTO " + TABLE + " SELECT tg_tag, d.object_identity"
                        + " FROM pg_event_trigger_dropped_objects() d WHERE d.original AND NOT d.is_temporary;"
                        + " END $$");
    }

    /** Starts recording: on the snapshot's connection, as a superuser, after Frontrun's own DDL. */
    static void watch(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE EVENT TRIGGER " + ON_CHANGE + " ON ddl_command_end EXECUTE FUNCTION " + RECORD_CHANGE
                    + "();\nCREATE EVENT TRIGGER " + ON_DROP + " ON sql_drop EXECUTE FUNCTION " + RECORD_DROP + "()");
        }
    }

    /** The recorded changes, one text each, as rows of the restore's first call (kind 4). */
    static String asCallRows() {
        return "SELECT 4, 0::oid, s.command || coalesce(' ' || s.object, '') FROM " + TABLE + " s";
    }
}

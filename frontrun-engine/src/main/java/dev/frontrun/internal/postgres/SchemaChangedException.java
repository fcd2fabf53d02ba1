package dev.frontrun.internal.postgres;

import java.sql.SQLException;
import java.util.List;

/**
 * Someone changed the database's schema while an exploration ran (the explored code, the per-execution setup, or a
 * connection beside them). A restore puts back rows and sequences, not tables, indexes or views, so the executions
 * after the change would not start from the database the first one met, and no verdict could be trusted. The
 * exploration stops with this error instead, naming each change.
 */
public final class SchemaChangedException extends SQLException {

    private final transient List<String> changes;

    SchemaChangedException(String when, List<String> changes, Throwable cause) {
        super(message(when, changes), null, cause);
        this.changes = List.copyOf(changes);
    }

    /** The changes as PostgreSQL names them: the command, then the object where it names one. */
    public List<String> changes() {
        return changes;
    }

    private static String message(String when, List<String> changes) {
        return "The database's schema changed during the exploration (found on the restore " + when + "): "
                + String.join("; ", changes) + ". Frontrun puts back the rows and sequences of the tables it found when"
                + " the exploration began, not schema changes, so the executions after this one would not start from the"
                + " database the first one met, and the exploration stops without a verdict. Make such changes before"
                + " the exploration (a migration, @BeforeAll or @BeforeEach), not in the explored code or the"
                + " exploration's setup; what they created is left in the database.";
    }
}

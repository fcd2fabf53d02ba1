package dev.frontrun.internal.sql.schema;

import dev.frontrun.internal.sql.syntax.TableName;
import java.sql.Connection;

/**
 * Where the planner learns about tables. An interface so the JDBC proxy can feed it lazily from a
 * connection ({@link JdbcTableCatalog}) and tests can use a fixed map ({@link FixedTableCatalog}).
 * Implementations must be thread-safe and should cache: they are asked once per table per classified
 * statement text.
 */
public interface TableCatalog {

    /**
     * Resolves a name as written in SQL (schema possibly absent: resolve it the way the database's
     * search path would) to the relation's description.
     */
    TableLookup lookup(TableName asWritten);

    /**
     * What calls of the function {@code name} may do to tables ({@code schema} {@code null} when the call does not
     * qualify the name; both folded): {@link FunctionEffect#WRITES} unless the catalog knows better.
     */
    default FunctionEffect function(String schema, String name) {
        return FunctionEffect.WRITES;
    }

    /** Forgets cached metadata, e.g. after DDL. */
    default void invalidate() {}

    /**
     * Reads again what it has cached (the schema may have changed behind the caller's back).
     *
     * @return whether anything differs, so that what was planned from the old metadata must be planned again
     */
    default boolean refresh() {
        invalidate();
        return true;
    }

    /**
     * {@link #refresh()} on {@code lent}, a connection of the caller's that it leaves open (one that has just read
     * the catalog answers faster than a new one).
     */
    default boolean refresh(Connection lent) {
        return refresh();
    }
}

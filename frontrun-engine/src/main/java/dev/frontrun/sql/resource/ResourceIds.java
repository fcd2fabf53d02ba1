package dev.frontrun.sql.resource;

import dev.frontrun.sql.syntax.TableName;

/**
 * Spells the SQL resource ids. Names are canonical (schema resolved; {@code public} omitted; quoted
 * when not plain), so one table always has one spelling and distinct tables never share one.
 * <pre>
 *   sql:*                    every table of the database (endpoint level)
 *   sql:owners               table owners            sql:billing.invoices   table billing.invoices
 *   sql:owners:(1)           row id=1 of owners      sql:order_lines:(7,2)   composite key
 *   sql:users:('bob')        text/uuid keys quoted   sql:pets:(@t0.1)        a generated key's alias
 *   sql:owners#members       which rows exist in owners (inserts/deletes vs predicate reads)
 *   sql:owners_seq           a sequence (nextval/setval) — a relation name like any other
 * </pre>
 */
public final class ResourceIds {

    public static final String PREFIX = "sql:";
    public static final String ENDPOINT = PREFIX + "*";
    public static final String MEMBERS_SUFFIX = "#members";

    private ResourceIds() {
    }

    public static String table(TableName canonical) {
        return PREFIX + canonical.display();
    }

    /** {@code keyTuple} is already rendered, e.g. {@code (1)} or {@code (7,'a')}. */
    public static String row(TableName canonical, String keyTuple) {
        return table(canonical) + ":" + keyTuple;
    }

    public static String members(TableName canonical) {
        return table(canonical) + MEMBERS_SUFFIX;
    }
}

package dev.frontrun.internal.sql.resource;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.Objects;

/**
 * What a SQL access is about, as a value. The whole database (endpoint), a table, one row of it,
 * its membership (which rows exist — what inserts and deletes change and predicate reads depend on)
 * or a sequence. {@link #render()} spells the resource id the engine compares; names are canonical
 * (schema resolved, {@code public} omitted, quoted when not plain), so one table always has one
 * spelling and distinct tables never share one.
 * <pre>
 *   sql:*                    every table of the database (endpoint level)
 *   sql:owners               table owners            sql:billing.invoices   table billing.invoices
 *   sql:owners:(1)           row id=1 of owners      sql:order_lines:(7,2)   composite key
 *   sql:users:('bob')        text/uuid keys quoted   sql:pets:(@t0.1)        a generated key's alias
 *   sql:owners#members       which rows exist in owners (inserts/deletes vs predicate reads)
 *   sql:owners_seq           a sequence (nextval/setval) — spelled like a relation
 *   sql:owners#keys          the keys the database generates for owners: which insert gets which key
 *   sql:owners#locks         which rows of owners are locked: a NOWAIT or SKIP LOCKED statement reads it,
 *                            the end of a transaction that touched owners writes it
 *   sql:#advisory:(42)       the advisory lock of key 42 ({@code (1,2)} for the two-key form), held to the end
 *                            of a transaction; sql:#advisory every advisory lock (a key not known)
 * </pre>
 * Advisory locks are a row and a table of a pseudo-table no relation's canonical name can spell (a name starting
 * with {@code #} is quoted).
 *
 * @param kind  the granularity
 * @param table the canonical display name of the table or sequence; null for the endpoint
 * @param key   the rendered key tuple of a row, e.g. {@code (1)} or {@code (7,'a')}; null otherwise
 */
public record ResourceId(Kind kind, String table, String key) {

    /** The granularity of a resource. */
    public enum Kind {
        ENDPOINT,
        TABLE,
        ROW,
        MEMBERS,
        SEQUENCE,
        KEYS,
        LOCKS
    }

    private static final String PREFIX = "sql:";

    /** Every table of the database: the coarsest, always sound level. */
    public static final ResourceId ENDPOINT = new ResourceId(Kind.ENDPOINT, null, null);

    public ResourceId {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.ENDPOINT) {
            table = null;
        } else {
            Objects.requireNonNull(table, "table");
        }
        if (kind == Kind.ROW) {
            Objects.requireNonNull(key, "key");
        } else {
            key = null;
        }
    }

    public static ResourceId table(TableName canonical) {
        return new ResourceId(Kind.TABLE, canonical.display(), null);
    }

    /** {@code keyTuple} is already rendered, e.g. {@code (1)} or {@code (7,'a')}. */
    public static ResourceId row(TableName canonical, String keyTuple) {
        return new ResourceId(Kind.ROW, canonical.display(), keyTuple);
    }

    public static ResourceId members(TableName canonical) {
        return new ResourceId(Kind.MEMBERS, canonical.display(), null);
    }

    /** Whether {@code rendered} is a table's key order, the resource {@link #keys} renders to. */
    public static boolean isKeyOrder(String rendered) {
        return rendered.endsWith(KEYS_SUFFIX);
    }

    /** The table's key generator: inserts that get a generated key write it, accesses by a concrete key read it. */
    public static ResourceId keys(TableName canonical) {
        return new ResourceId(Kind.KEYS, canonical.display(), null);
    }

    /** Which rows of the table {@code display} names are locked right now. */
    public static ResourceId locksOf(String display) {
        return new ResourceId(Kind.LOCKS, display, null);
    }

    /** The advisory lock of the rendered key tuple {@code (42)} or {@code (1,2)}, a row of the advisory pseudo-table. */
    public static ResourceId advisoryLock(String keyTuple) {
        return new ResourceId(Kind.ROW, ADVISORY, keyTuple);
    }

    /** Every advisory lock: the key is not known. */
    private static final String KEYS_SUFFIX = "#keys";

    public static final ResourceId ADVISORY_LOCKS = new ResourceId(Kind.TABLE, "#advisory", null);

    private static final String ADVISORY = ADVISORY_LOCKS.table;

    public static ResourceId sequence(TableName canonical) {
        return new ResourceId(Kind.SEQUENCE, canonical.display(), null);
    }

    /**
     * Whether an access to this resource and one to {@code other} can touch the same data. A row
     * overlaps itself and its table, a table all its rows, membership only membership, the
     * endpoint everything.
     */
    public boolean overlaps(ResourceId other) {
        if (kind == Kind.ENDPOINT || other.kind == Kind.ENDPOINT) {
            return true;
        }
        if (!table.equals(other.table)) {
            return false;
        }
        if (kind == Kind.MEMBERS
                || other.kind == Kind.MEMBERS
                || kind == Kind.KEYS
                || other.kind == Kind.KEYS
                || kind == Kind.LOCKS
                || other.kind == Kind.LOCKS) {
            return kind == other.kind;
        }
        if (kind == Kind.ROW && other.kind == Kind.ROW) {
            return key.equals(other.key);
        }
        return true;
    }

    /** The resource id as the engine compares it, e.g. {@code sql:owners:(1)}. */
    public String render() {
        return switch (kind) {
            case ENDPOINT -> PREFIX + "*";
            case TABLE, SEQUENCE -> PREFIX + table;
            case ROW -> PREFIX + table + ":" + key;
            case MEMBERS -> PREFIX + table + "#members";
            case KEYS -> PREFIX + table + KEYS_SUFFIX;
            case LOCKS -> PREFIX + table + "#locks";
        };
    }

    @Override
    public String toString() {
        return render();
    }
}

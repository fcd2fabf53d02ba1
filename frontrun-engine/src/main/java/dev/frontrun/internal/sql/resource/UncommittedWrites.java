package dev.frontrun.internal.sql.resource;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.syntax.StatementKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How a statement's accesses are announced so that a plain read commutes with a write other
 * transactions cannot see yet, as in PostgreSQL, and with nothing else.
 *
 * <p>Design notes: see the package documentation.
 */
public final class UncommittedWrites {

    private static final String TWIN = "lock:";

    private UncommittedWrites() {}

    /** Whether a statement of this kind takes only row locks, which plain reads of other transactions ignore. */
    public static boolean deferrable(StatementKind kind) {
        return switch (kind) {
            case SELECT, INSERT, UPDATE, DELETE, MERGE -> true;
            default -> false;
        };
    }

    /** Whether a statement with these accesses only reads, taking no row lock: it sees committed data only. */
    public static boolean plainRead(List<ResourceAccess> accesses, boolean lockingRead) {
        if (lockingRead) {
            return false;
        }
        for (ResourceAccess a : accesses) {
            if (a.kind().writes()) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a statement that is not a plain read announces.
     *
     * @param accesses        its accesses as the SQL pipeline gives them
     * @param sequences       the rendered sequences among them (spelled like tables)
     * @param uncommitted     whether its writes stay invisible to other transactions until a commit: a
     *                        {@link #deferrable} statement inside a transaction below SERIALIZABLE
     */
    public static List<ResourceAccess> announced(
            List<ResourceAccess> accesses, Set<String> sequences, boolean uncommitted) {
        Set<ResourceAccess> out = new LinkedHashSet<>();
        List<ResourceAccess> twins = new ArrayList<>();
        for (ResourceAccess a : accesses) {
            String resource = a.resource();
            if (!transactional(resource, sequences)) {
                out.add(a);
                continue;
            }
            twins.add(new ResourceAccess(TWIN + resource, a.kind()));
            boolean wholeDatabase = resource.equals(ResourceId.ENDPOINT.render()) && a.kind() == Access.WRITE;
            out.add(
                    uncommitted && a.kind().writes() && !wholeDatabase
                            ? new ResourceAccess(resource, readOf(a.kind()))
                            : a);
        }
        out.addAll(twins);
        return List.copyOf(out);
    }

    /**
     * What a commit publishes of a statement's writes: those the commit makes visible. Drawing from a sequence and
     * the order of generated keys took effect at the statement, for everyone; no commit or rollback changes them.
     */
    public static List<ResourceAccess> published(List<ResourceAccess> accesses, Set<String> sequences) {
        List<ResourceAccess> out = new ArrayList<>();
        for (ResourceAccess a : accesses) {
            if (a.kind().writes() && !nonTransactional(a.resource(), sequences)) {
                out.add(a);
            }
        }
        return List.copyOf(out);
    }

    /**
     * What undoing a statement's writes announces (a ROLLBACK, or ROLLBACK TO a savepoint before it).
     * Writes that stayed uncommitted were never visible to another transaction's plain read, so
     * undoing them changes what no plain read sees: they are undone on the lock twins only, which orders
     * the rollback against every statement that may wait for those row locks or see the rows in a
     * unique index. Every other write (not deferrable, or at SERIALIZABLE, where SSI may fail a reader
     * of it) is undone as the write it was, except a sequence's, which no rollback gives back.
     *
     * @param accesses    the statement's accesses as the SQL pipeline gives them
     * @param sequences   the rendered sequences among them
     * @param uncommitted as for {@link #announced}
     */
    public static List<ResourceAccess> undone(
            List<ResourceAccess> accesses, Set<String> sequences, boolean uncommitted) {
        List<ResourceAccess> out = new ArrayList<>();
        for (ResourceAccess a : accesses) {
            if (!a.kind().writes()) {
                continue;
            }
            String resource = a.resource();
            if (nonTransactional(resource, sequences)) {
                continue; // a rollback gives back no value a sequence handed out
            }
            boolean wholeDatabase = resource.equals(ResourceId.ENDPOINT.render()) && a.kind() == Access.WRITE;
            boolean deferred = uncommitted && transactional(resource, sequences) && !wholeDatabase;
            out.add(deferred ? new ResourceAccess(TWIN + resource, a.kind()) : a);
        }
        return List.copyOf(out);
    }

    private static Access readOf(Access write) {
        return write == Access.WEAK_WRITE ? Access.WEAK_READ : Access.READ;
    }

    /** A sequence, or the order of a table's generated keys: what {@code nextval} changes, at once and for good. */
    private static boolean nonTransactional(String resource, Set<String> sequences) {
        return sequences.contains(resource) || ResourceId.isKeyOrder(resource);
    }

    private static boolean transactional(String resource, Set<String> sequences) {
        return resource.startsWith("sql:")
                && !ResourceId.isKeyOrder(resource)
                && !resource.endsWith("#locks")
                && !sequences.contains(resource);
    }
}

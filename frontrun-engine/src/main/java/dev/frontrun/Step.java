package dev.frontrun;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a thread is about to do when it stops at a scheduling point.
 * It carries the accesses of its next step, the database row locks the step is predicted to take and release (so the scheduler looks
 * for a wait at once when another thread holds one — it forbids the step only as {@link RowLocking} says), and a label and
 * detail for traces and reports.
 *
 * @param accesses  resources the step touches
 * @param acquires  lock ids the step is predicted to take; while another thread holds one, the step is
 *                  expected to start and wait inside the database
 * @param releases  lock ids the step gives back (a commit releases the transaction's row locks)
 * @param label     one line for traces, e.g. the SQL with bound values
 * @param detail    source-specific data for classifiers and reports (e.g. the SQL step), or null
 * @param locking   how the step takes its row locks ({@link RowLocking#OTHER} unless its source knows better)
 */
public record Step(
        List<ResourceAccess> accesses,
        Set<String> acquires,
        Set<String> releases,
        String label,
        Object detail,
        RowLocking locking) {

    public Step {
        accesses = List.copyOf(accesses);
        acquires = Set.copyOf(acquires);
        releases = Set.copyOf(releases);
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(locking, "locking");
    }

    /** A step whose row locks, if any, are taken as {@link RowLocking#OTHER}. */
    public Step(
            List<ResourceAccess> accesses, Set<String> acquires, Set<String> releases, String label, Object detail) {
        this(accesses, acquires, releases, label, detail, RowLocking.OTHER);
    }

    /**
     * How a step takes the row locks it {@code acquires}, so the scheduler knows when where it starts waiting for one
     * cannot change what it does.
     */
    public enum RowLocking {
        /** A statement that waits for a lock starts and waits inside the database: where it started is a state of its own. */
        OTHER,
        /**
         * It locks the one existing row it names by key and reads nothing else (an {@code UPDATE} or {@code SELECT … FOR
         * UPDATE} by primary key): the row stays locked until its transaction ends, and nobody else can change it meanwhile.
         */
        BY_KEY,
        /**
         * {@link #BY_KEY}, at READ COMMITTED. When it waits for the row it then reads the newest committed version, as if
         * it had started once the lock was given back. While another thread holds that row {@code BY_KEY}, it does not start.
         */
        BY_KEY_NEWEST
    }

    /**
     * The facts of a step on a data store beside the SQL database (a Redis server, say), as values, so that reports show
     * what the step sent and touched without reading its label. A source's {@link #detail} implements it.
     */
    public interface StoreFacts {

        /** The store, as reports name it: {@code redis}. */
        String store();

        /**
         * What the step sends, each operation as its words (a command and its arguments), in order; more than one
         * when the store ran them as one ({@code MULTI … EXEC}).
         */
        List<List<String>> operations();

        /** The resources the step reads and does not write ({@code redis:0:counter}), as the scheduler orders them. */
        List<String> reads();

        /** The resources the step writes (and may read). */
        List<String> writes();

        /** Whether the store ran the operations as one, with nothing of another client in between. */
        default boolean atomic() {
            return false;
        }

        /**
         * The resources the store makes sure no other client changed since this client began watching them, refusing
         * the step otherwise (Redis's watched keys at an {@code EXEC}): a write of them here never rests on a stale read.
         */
        default List<String> guards() {
            return List.of();
        }

        /**
         * The written resources the store changes from the value it finds (an increment, an append, a push), so that
         * another client's write just before is kept, not overwritten: Redis's {@code INCR}, {@code APPEND},
         * {@code SADD}. A resource the step also replaces ({@code SET}) is not one.
         */
        default List<String> cumulativeWrites() {
            return List.of();
        }
    }

    public static Step of(String label, List<ResourceAccess> accesses) {
        return new Step(accesses, Set.of(), Set.of(), label, null);
    }

    public static Step of(String label, ResourceAccess... accesses) {
        return of(label, List.of(accesses));
    }

    @Override
    public String toString() {
        return label;
    }
}

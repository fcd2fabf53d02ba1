package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.spi.SchedulingPoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Orders SERIALIZABLE transactions as PostgreSQL's serializable snapshot isolation can doom them, so no 40001 goes
 * unexplored. A commit that publishes writes may doom any serializable transaction under way. The doomed one learns
 * it at its next statement, whatever that statement touches. So such commits and those statements meet on one
 * resource, {@link #RESOURCE}: coarser than the server, never finer. One per execution, shared by its connections.
 */
final class SerializationGraph {

    /** The graph of read-write conflicts among serializable transactions; no table can be spelled so. */
    static final String RESOURCE = "sql:#ssi";

    /** The SERIALIZABLE transactions begun and not ended, by name. */
    private final Set<String> underWay = ConcurrentHashMap.newKeySet();
    /** Whether a SERIALIZABLE transaction that wrote has committed in this execution. */
    private volatile boolean writerCommitted;

    /**
     * Whether a statement's uncommitted writes must be announced at once, as writes. At SERIALIZABLE they must: SSI
     * orders a read and a write of one row whichever came first. Below it, a plain read cannot see them.
     */
    static boolean ordersUncommittedWrites(Isolation transactionLevel) {
        return transactionLevel == Isolation.SERIALIZABLE;
    }

    /**
     * What a COMMIT announces besides its writes. A serializable transaction under way may be doomed and fail there.
     * If it wrote, it may doom the others.
     */
    static List<ResourceAccess> atCommit(List<ResourceAccess> accesses, TransactionState tx) {
        if (!tx.serializableUnderWay()) {
            return accesses;
        }
        return tx.wrote() ? mayDoom(accesses) : mayBeDoomed(accesses);
    }

    /**
     * The transaction {@code tx} ends. It counts as a writer that committed when {@code committed} (its COMMIT
     * succeeded, and no error had aborted it), it wrote, and it ran at SERIALIZABLE.
     */
    void ended(TransactionState tx, boolean committed) {
        underWay.remove(tx.name());
        writerCommitted |= committed && tx.wrote() && tx.isolation() == Isolation.SERIALIZABLE;
    }

    /**
     * A statement's part in the graph, decided before its step. A statement of a serializable transaction under way
     * may be doomed by a commit since its last one. An autocommit write at SERIALIZABLE commits at its end, and may
     * doom others.
     *
     * @param transaction the transaction it runs in: {@code tx}'s, or its own in autocommit mode
     * @param level       the level it runs at: {@code tx}'s, or the connection's in autocommit mode
     * @param announced   what its step announces so far
     */
    StatementPart statement(
            TransactionState tx,
            boolean autocommit,
            String transaction,
            Isolation level,
            List<ResourceAccess> announced) {
        boolean serializable = level == Isolation.SERIALIZABLE;
        boolean inTransaction = !autocommit && serializable && !tx.aborted();
        if (inTransaction) {
            underWay.add(transaction);
        }
        boolean autocommitWrite = autocommit && serializable && writes(announced);
        List<ResourceAccess> step = announced;
        if (inTransaction && tx.serializableUnderWay()) {
            step = mayBeDoomed(announced); // a commit may have doomed it since its last statement
        } else if (autocommitWrite) {
            step = mayDoom(announced); // its own commit, at its end
        }
        return new StatementPart(transaction, inTransaction, autocommitWrite, step);
    }

    /**
     * One statement's part: what its step announces, and what it tells once it ran. Whether it may doom a third
     * transaction depends on other threads' steps after it was announced. So that is decided when it runs, and told
     * after ({@link SchedulingPoints#alsoDid}).
     */
    final class StatementPart {

        private final String transaction;
        /** Whether it runs in a serializable transaction begun before it. */
        private final boolean inTransaction;

        private final boolean autocommitWrite;
        private final List<ResourceAccess> announced;
        private boolean mayDoomAnother;

        private StatementPart(
                String transaction, boolean inTransaction, boolean autocommitWrite, List<ResourceAccess> announced) {
            this.transaction = transaction;
            this.inTransaction = inTransaction;
            this.autocommitWrite = autocommitWrite;
            this.announced = announced;
        }

        /** What the step announces. */
        List<ResourceAccess> announced() {
            return announced;
        }

        /**
         * The step was taken, and the statement is about to run. Once a serializable writer has committed, a statement
         * of another serializable transaction may doom a third still under way. The read-write conflict it adds can
         * complete a dangerous structure through the committed writer.
         */
        void running() {
            mayDoomAnother =
                    inTransaction && writerCommitted && underWay.stream().anyMatch(other -> !other.equals(transaction));
        }

        /** The statement ran ({@code succeeded}) or failed: tells what it may have done to the graph. */
        void ran(boolean succeeded) {
            if (mayDoomAnother) {
                SchedulingPoints.alsoDid(new Step(
                        List.of(ResourceAccess.write(RESOURCE)),
                        Set.of(),
                        Set.of(),
                        "a read-write conflict of " + transaction + " may doom another serializable transaction",
                        null));
            }
            if (succeeded && autocommitWrite) {
                underWay.remove(transaction); // its own commit
                writerCommitted = true;
            }
        }
    }

    /** A statement of a serializable transaction under way: a commit since its last one may have doomed it. */
    private static List<ResourceAccess> mayBeDoomed(List<ResourceAccess> accesses) {
        return with(accesses, ResourceAccess.read(RESOURCE));
    }

    /** A statement that commits writes at SERIALIZABLE: it may doom others. */
    private static List<ResourceAccess> mayDoom(List<ResourceAccess> accesses) {
        return with(accesses, ResourceAccess.write(RESOURCE));
    }

    /** Whether a step writes anything. */
    private static boolean writes(List<ResourceAccess> accesses) {
        return accesses.stream().anyMatch(a -> a.kind().writes());
    }

    private static List<ResourceAccess> with(List<ResourceAccess> accesses, ResourceAccess graph) {
        List<ResourceAccess> out = new ArrayList<>(accesses.size() + 1);
        out.addAll(accesses);
        out.add(graph);
        return out;
    }
}

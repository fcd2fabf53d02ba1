package dev.frontrun.oracle;

import java.util.EnumSet;
import java.util.Set;

/**
 * The feature flags of the program generator: each statement kind and each transaction feature
 * belongs to one category, and a generator only emits what its set of categories switches on. The
 * oracle reports missing outcomes per category, so a category is the unit in which the model's
 * coverage is certified.
 */
public enum Category {
    /** {@code SELECT … WHERE id = ?} */
    PK_READ,
    /** {@code WHERE v > ?} and {@code count(*)} reads */
    PREDICATE_READ,
    /** {@code UPDATE … WHERE id = ?} */
    UPDATE_PK,
    /** {@code UPDATE … WHERE v > ?} */
    UPDATE_PREDICATE,
    /** {@code SELECT … FOR UPDATE} by key and by predicate */
    FOR_UPDATE,
    /** {@code SELECT … FOR SHARE} */
    FOR_SHARE,
    /** {@code SELECT … FOR UPDATE NOWAIT} (55P03 when the row is locked) */
    NOWAIT,
    /** {@code SELECT … FOR UPDATE SKIP LOCKED} */
    SKIP_LOCKED,
    /** {@code UPDATE … WHERE id = 5}, and when it updated nothing {@code INSERT (5, …)}: program logic */
    UPDATE_THEN_INSERT,
    /** {@code INSERT … ON CONFLICT DO NOTHING} */
    UPSERT_DO_NOTHING,
    /** {@code INSERT … ON CONFLICT (id) DO UPDATE} */
    UPSERT_DO_UPDATE,
    /** {@code INSERT} with an explicit primary key */
    INSERT_EXPLICIT_KEY,
    /** {@code INSERT} into the child table, key from its {@code serial}, returned to the client */
    INSERT_GENERATED_KEY,
    /** {@code INSERT} omitting a key column that has a constant {@code DEFAULT}, and reads/updates by that key */
    INSERT_DEFAULT_KEY,
    /** names under the partial unique index {@code UNIQUE (name) WHERE NOT deleted}: inserts, soft deletes, revivals */
    PARTIAL_UNIQUE,
    /** {@code SELECT nextval('ticket')} */
    NEXTVAL,
    /** {@code DELETE} of a parent row, cascading to its children */
    DELETE_CASCADE,
    /**
     * {@code UPDATE … WHERE id = ? AND v = 10 * id}, a compare-and-set on the row's first value (an
     * optimistic lock's version check); inside a transaction, when it updated nothing, {@code ROLLBACK}
     * and stop, as an application gives up a stale write: a rollback of the program's own choosing
     */
    OPTIMISTIC_UPDATE,
    /**
     * {@code pg_advisory_xact_lock(?)} and {@code pg_try_advisory_xact_lock(?)}: advisory locks held to the end of the
     * transaction (in autocommit, of the statement), keyed like the rows, so that they collide
     */
    ADVISORY_LOCK,
    /**
     * {@code SELECT … WHERE id = ? FOR UPDATE SKIP LOCKED}: a try-lock of one row, which answers (no row) without an error,
     * so that it meets another transaction's locks right after that transaction's failed statement, before its ROLLBACK
     */
    SKIP_LOCKED_ROW,
    /**
     * {@code SELECT … FOR NO KEY UPDATE} (Hibernate's pessimistic write lock on PostgreSQL) and {@code FOR KEY SHARE} (the
     * lock a foreign key's check takes on the referenced row): the two row locks that do not conflict with each other
     */
    KEY_LOCKS,
    /**
     * Statements over both tables: a fetch join's read, a grouped left join, a join locking one side ({@code FOR UPDATE
     * OF}), {@code UPDATE … FROM}, {@code DELETE … USING} and an {@code EXISTS} subquery
     */
    JOINS,
    /**
     * Statements with a {@code WITH} clause (a data-modifying one among them), {@code INSERT … SELECT} and
     * {@code RETURNING} on an {@code UPDATE} and a {@code DELETE}
     */
    CTES,
    /**
     * Writes under a unique constraint checked at {@code COMMIT} ({@code DEFERRABLE INITIALLY DEFERRED}): inserts of
     * taken codes, a swap of two codes (valid only at the end), reads; a {@code COMMIT} that waits for another
     * transaction's insert of the same code, and one that fails
     */
    DEFERRED_UNIQUE,
    /**
     * Writes to a table with user triggers: a {@code BEFORE UPDATE} trigger that changes the written row, and an
     * {@code AFTER INSERT OR UPDATE} trigger that counts each write in a row of another table (an audit counter)
     */
    TRIGGERS,
    /**
     * A foreign key checked at {@code COMMIT} ({@code DEFERRABLE INITIALLY DEFERRED}): inserts of links to parents that
     * may not exist yet, deletes of parents that may still be linked; a {@code COMMIT} that fails, or waits
     */
    DEFERRED_FK,
    /** threads whose statements each commit on their own */
    AUTOCOMMIT,
    /** one explicit transaction per thread at READ COMMITTED */
    READ_COMMITTED,
    /** … at REPEATABLE READ */
    REPEATABLE_READ,
    /** … at SERIALIZABLE */
    SERIALIZABLE,
    /** transactions begun through JDBC ({@code setAutoCommit(false)}, {@code setTransactionIsolation}) instead of SQL text */
    JDBC_TRANSACTIONS,
    /** {@code SAVEPOINT} with {@code ROLLBACK TO SAVEPOINT}: on an error, and to undo a tentative write */
    SAVEPOINT,
    /** programs of three threads (otherwise two) */
    THREE_THREADS;

    /** The isolation-level categories: a program needs at least one to have any thread at all. */
    static final Set<Category> TRANSACTION_MODES =
            EnumSet.of(AUTOCOMMIT, READ_COMMITTED, REPEATABLE_READ, SERIALIZABLE);

    /** Categories that say how statements run rather than which statements there are. */
    static final Set<Category> FEATURES = EnumSet.of(
            AUTOCOMMIT, READ_COMMITTED, REPEATABLE_READ, SERIALIZABLE, JDBC_TRANSACTIONS, SAVEPOINT, THREE_THREADS);

    /** Categories of statements. */
    static Set<Category> statements() {
        Set<Category> out = EnumSet.allOf(Category.class);
        out.removeAll(FEATURES);
        return out;
    }
}

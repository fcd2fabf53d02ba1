package dev.frontrun.internal.sql.syntax;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One way a statement touches one relation, as far as the SQL text tells. Which table, whether it
 * reads, locks, inserts, updates or deletes, and the conditions limiting the rows. A statement has a
 * use per occurrence of a table (a self-join reads a table twice).
 */
public sealed interface TableUse {

    TableName table();

    /** Reads rows of {@code table} satisfying all {@code conditions}. */
    record Scan(TableName table, List<Condition> conditions) implements TableUse {
        public Scan {
            conditions = List.copyOf(conditions);
        }
    }

    /** {@code SELECT … FOR UPDATE/SHARE}: reads and row-locks the rows satisfying {@code conditions}. */
    record Lock(TableName table, List<Condition> conditions) implements TableUse {
        public Lock {
            conditions = List.copyOf(conditions);
        }
    }

    /**
     * Inserts rows. {@code columns} is {@code null} when the statement lists none; {@code rows} is
     * {@code null} when they come from a query, otherwise one operand per column per row.
     */
    record Insert(TableName table, List<String> columns, List<List<Operand>> rows, OnConflict onConflict)
            implements TableUse {
        public Insert {
            columns = columns == null ? null : List.copyOf(columns);
            rows = rows == null ? null : rows.stream().map(List::copyOf).toList();
        }
    }

    /**
     * {@code ON CONFLICT} of an INSERT. {@code targetColumns} is empty when no column list is given;
     * {@code constraint} names the arbiter constraint if given by name.
     */
    record OnConflict(List<String> targetColumns, String constraint, boolean doUpdate, Set<String> updatedColumns) {
        public OnConflict {
            targetColumns = List.copyOf(targetColumns);
            updatedColumns = Set.copyOf(updatedColumns);
        }
    }

    /**
     * Updates rows satisfying {@code conditions}; {@code assignments} maps each SET column to its value, in the order
     * of the SET clause.
     */
    record Update(TableName table, List<Condition> conditions, Map<String, Operand> assignments) implements TableUse {
        public Update {
            conditions = List.copyOf(conditions);
            assignments = Collections.unmodifiableMap(new LinkedHashMap<>(assignments));
        }
    }

    /** Deletes rows satisfying {@code conditions}. */
    record Delete(TableName table, List<Condition> conditions) implements TableUse {
        public Delete {
            conditions = List.copyOf(conditions);
        }
    }

    /** The target of a MERGE: may insert, update and delete any rows. */
    record MergeTarget(TableName table) implements TableUse {}

    /** TRUNCATE (and {@code LOCK TABLE}, which excludes every other access the same way). */
    record WholeTable(TableName table, boolean resetsSequences) implements TableUse {}

    /** {@code nextval('seq')}: takes a value from a sequence. */
    record SequenceNext(TableName table) implements TableUse {}

    /** {@code setval('seq', …)}: repositions a sequence. */
    record SequenceSet(TableName table) implements TableUse {}

    /**
     * {@code pg_advisory_xact_lock(k)} or {@code (k1, k2)} and their try forms ({@code waits} false). An advisory lock
     * held to the transaction's end, by its key (one operand, or two: PostgreSQL keeps the two forms apart). A shared
     * lock is taken for an exclusive one, which conflicts with more: coarser, never finer.
     */
    record AdvisoryLock(List<Operand> key, boolean waits) implements TableUse {
        /** What the advisory locks stand in for where a relation is expected: no relation has this name. */
        public static final TableName LOCKS = TableName.of("#advisory");

        public AdvisoryLock {
            key = List.copyOf(key);
        }

        @Override
        public TableName table() {
            return LOCKS;
        }
    }

    /**
     * A call of a function the {@link FunctionPolicy} does not know ({@code schema} {@code null} when unqualified;
     * both folded). What it may do is the database's to say, by the function's declared volatility.
     */
    record Call(String schema, String name) implements TableUse {
        /** What a call stands in for where a relation is expected: no relation has this name. */
        public static final TableName FUNCTIONS = TableName.of("#function");

        @Override
        public TableName table() {
            return FUNCTIONS;
        }
    }
}

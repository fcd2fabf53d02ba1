package dev.frontrun.internal.sql.plan;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.schema.KeyColumn;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Objects;

/** One parameter-independent access of a statement: to a table (with its rows), a sequence, or everything. */
public sealed interface PlannedAccess {

    /** An access to every table of the database ({@code sql:*}); {@code kind} is READ or WRITE. */
    record Endpoint(Access kind, String reason) implements PlannedAccess {
        public Endpoint {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * An access to rows of a table. {@code reads}/{@code writes} say what is done to the selected rows;
     * {@code changesMembership} whether rows appear or disappear (INSERT, DELETE…), which is what
     * predicate readers see as phantoms. {@code exclusive} says whether the touched rows are locked
     * exclusively until the transaction ends (writes and FOR [NO KEY] UPDATE, not FOR [KEY] SHARE).
     * {@code generatedRows} counts new rows whose key the database generates: they are touched in
     * addition to {@code rows}, under per-thread aliases.
     */
    record TableAccess(TableName table, List<KeyColumn> key, Effect effect, RowSelection rows, int generatedRows)
            implements PlannedAccess {
        public TableAccess {
            Objects.requireNonNull(table, "table");
            key = List.copyOf(key);
            Objects.requireNonNull(effect, "effect");
            Objects.requireNonNull(rows, "rows");
        }

        /** An access that locks exclusively exactly when it writes, and generates no keys. */
        public TableAccess(
                TableName table,
                List<KeyColumn> key,
                boolean reads,
                boolean writes,
                boolean changesMembership,
                RowSelection rows) {
            this(table, key, new Effect(reads, writes, changesMembership, writes), rows, 0);
        }

        public boolean reads() {
            return effect.reads();
        }

        public boolean writes() {
            return effect.writes();
        }

        public boolean changesMembership() {
            return effect.changesMembership();
        }

        public boolean exclusive() {
            return effect.exclusive();
        }
    }

    /** What a {@link TableAccess} does to the rows it selects, so the binder knows which accesses to report. */
    record Effect(boolean reads, boolean writes, boolean changesMembership, boolean exclusive) {}

    /**
     * {@code nextval} ({@code repositions == false}) or {@code setval}. Taking values is modelled as
     * commuting: which thread gets which value differs between interleavings, but generated keys are
     * aliased per thread, so only reading or repositioning the sequence conflicts with it.
     */
    record SequenceAccess(TableName sequence, boolean repositions) implements PlannedAccess {}

    /** An advisory lock held to the transaction's end, by its key operands ({@code waits} false: the try form). */
    record AdvisoryLock(List<Operand> key, boolean waits) implements PlannedAccess {
        public AdvisoryLock {
            key = List.copyOf(key);
        }
    }
}

package dev.frontrun.internal.sql.plan;

import dev.frontrun.internal.sql.syntax.Operand;
import java.util.List;
import java.util.Objects;

/** Which rows of a table an access is planned to touch, before parameters are known. */
public sealed interface RowSelection {

    /** Possibly any row (a predicate the planner cannot turn into keys); {@code reason} says why. */
    record AllRows(String reason) implements RowSelection {
        public AllRows {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The rows whose primary key is one of {@code keys} (operands in key-column order; an
     * {@link Operand.ArrayParam} stands for each element of the bound array).
     */
    record Rows(List<List<Operand>> keys) implements RowSelection {
        public Rows {
            keys = keys.stream().map(List::copyOf).toList();
        }
    }
}

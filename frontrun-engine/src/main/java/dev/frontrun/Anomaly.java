package dev.frontrun;

import java.util.List;
import java.util.Objects;

/**
 * A classified anomaly behind a failure, with its kind and the level it was found at.
 * The level is database transactions, or requests spanning several transactions; the description names the
 * transactions, statements and rows of the dependency cycle.
 */
public record Anomaly(AnomalyKind kind, Level level, String description, List<String> cycle) {

    /** Where the dependency cycle lives. */
    public enum Level {
        /** Between database transactions: the isolation level in force allowed it. */
        TRANSACTION,
        /** Between requests (all statements of one thread), across transactions: no isolation level prevents it. */
        REQUEST
    }

    public Anomaly {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(level, "level");
        description = description == null ? "" : description;
        cycle = cycle == null ? List.of() : List.copyOf(cycle);
    }
}

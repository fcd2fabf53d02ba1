package dev.frontrun.internal.sql.shape;

import dev.frontrun.Isolation;
import java.util.Objects;

/**
 * An isolation level a statement sets. For the current transaction ({@code BEGIN ISOLATION LEVEL …},
 * {@code SET TRANSACTION …}, {@code SET LOCAL transaction_isolation …}) or as the session's default
 * for later transactions ({@code SET SESSION CHARACTERISTICS …}, {@code SET default_transaction_isolation …}).
 */
public record IsolationSetting(Isolation level, Scope scope) {

    /** How long the setting applies. */
    public enum Scope {
        TRANSACTION,
        SESSION
    }

    public IsolationSetting {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(scope, "scope");
    }
}

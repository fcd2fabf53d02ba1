package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import java.sql.Connection;

/** JDBC's isolation constants as {@link Isolation} levels. */
final class JdbcIsolation {

    private JdbcIsolation() {}

    /** The {@code Connection.TRANSACTION_*} constant of {@code level}. */
    static int toJdbc(Isolation level) {
        return switch (level) {
            case READ_UNCOMMITTED -> Connection.TRANSACTION_READ_UNCOMMITTED;
            case READ_COMMITTED -> Connection.TRANSACTION_READ_COMMITTED;
            case REPEATABLE_READ -> Connection.TRANSACTION_REPEATABLE_READ;
            case SERIALIZABLE -> Connection.TRANSACTION_SERIALIZABLE;
        };
    }

    /** The level of a {@code Connection.TRANSACTION_*} constant, or null for NONE and unknown values. */
    static Isolation of(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> Isolation.READ_UNCOMMITTED;
            case Connection.TRANSACTION_READ_COMMITTED -> Isolation.READ_COMMITTED;
            case Connection.TRANSACTION_REPEATABLE_READ -> Isolation.REPEATABLE_READ;
            case Connection.TRANSACTION_SERIALIZABLE -> Isolation.SERIALIZABLE;
            default -> null;
        };
    }
}

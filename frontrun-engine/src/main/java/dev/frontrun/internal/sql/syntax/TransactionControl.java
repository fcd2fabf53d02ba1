package dev.frontrun.internal.sql.syntax;

import java.util.Objects;
import java.util.Optional;

/**
 * A transaction-control statement. {@code name} is the savepoint (or prepared transaction id) if the
 * operation has one; {@code isolation} the isolation level a BEGIN/START/SET TRANSACTION asks for,
 * upper case with single spaces (e.g. {@code REPEATABLE READ}).
 */
public record TransactionControl(TxOp op, String name, String isolation) {

    public TransactionControl {
        Objects.requireNonNull(op, "op");
    }

    public static TransactionControl of(TxOp op) {
        return new TransactionControl(op, null, null);
    }

    public Optional<String> savepoint() {
        return op == TxOp.SAVEPOINT || op == TxOp.RELEASE_SAVEPOINT || op == TxOp.ROLLBACK_TO_SAVEPOINT
                ? Optional.ofNullable(name) : Optional.empty();
    }

    public Optional<String> isolationLevel() {
        return Optional.ofNullable(isolation);
    }
}

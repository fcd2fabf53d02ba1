package dev.frontrun.internal.sql.syntax;

import dev.frontrun.Isolation;
import java.util.Objects;
import java.util.Optional;

/**
 * A transaction-control statement. {@code name} is the savepoint (or prepared transaction id) if the
 * operation has one; {@code isolation} the isolation level a BEGIN/START/SET TRANSACTION asks for, if any.
 */
public record TransactionControl(TxOp op, String name, Isolation isolation) {

    public TransactionControl {
        Objects.requireNonNull(op, "op");
    }

    public static TransactionControl of(TxOp op) {
        return new TransactionControl(op, null, null);
    }

    public Optional<String> savepoint() {
        return op == TxOp.SAVEPOINT || op == TxOp.RELEASE_SAVEPOINT || op == TxOp.ROLLBACK_TO_SAVEPOINT
                ? Optional.ofNullable(name)
                : Optional.empty();
    }

    public Optional<Isolation> isolationLevel() {
        return Optional.ofNullable(isolation);
    }
}

package dev.frontrun.internal.sql.syntax;

/** A transaction-control operation, recognised without a SQL parser. */
public enum TxOp {
    BEGIN,
    COMMIT,
    ROLLBACK,
    SAVEPOINT,
    RELEASE_SAVEPOINT,
    ROLLBACK_TO_SAVEPOINT,
    SET_TRANSACTION,
    PREPARE_TRANSACTION,
    COMMIT_PREPARED,
    ROLLBACK_PREPARED
}

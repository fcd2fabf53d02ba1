package dev.frontrun.internal.sql.syntax;

/** What sort of statement a SQL string is, for reports and for the JDBC proxy's bookkeeping. */
public enum StatementKind {
    SELECT,
    INSERT,
    UPDATE,
    DELETE,
    MERGE,
    TRUNCATE,
    LOCK,
    /** BEGIN, COMMIT, ROLLBACK, savepoints, SET TRANSACTION. */
    TRANSACTION,
    /** SET, SHOW, RESET, LISTEN, EXPLAIN, empty statements: no shared data access. */
    UTILITY,
    /** CREATE/ALTER/DROP and friends: changes the schema. */
    DDL,
    /** CALL, DO, COPY, NOTIFY and other statements whose effect is not analysed. */
    OTHER,
    /** Text that could not be parsed. */
    UNKNOWN
}

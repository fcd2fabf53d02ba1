package dev.frontrun;

/** SQL isolation levels, with what PostgreSQL actually provides at each. */
public enum Isolation {
    /** PostgreSQL runs it as {@link #READ_COMMITTED}; databases that honour it show uncommitted writes. */
    READ_UNCOMMITTED("READ UNCOMMITTED"),
    /** Each statement sees the data committed before it started. PostgreSQL's default. */
    READ_COMMITTED("READ COMMITTED"),
    /** PostgreSQL: snapshot isolation; one snapshot per transaction, a write over a concurrent update fails with 40001. */
    REPEATABLE_READ("REPEATABLE READ"),
    /** PostgreSQL: serializable snapshot isolation; dangerous structures fail with 40001. */
    SERIALIZABLE("SERIALIZABLE");

    private final String sql;

    Isolation(String sql) {
        this.sql = sql;
    }

    /** The level as SQL spells it, e.g. {@code REPEATABLE READ}. */
    public String sql() {
        return sql;
    }

    /** Whether a transaction reads from one snapshot taken at its first statement. */
    public boolean snapshotPerTransaction() {
        return this == REPEATABLE_READ || this == SERIALIZABLE;
    }

    @Override
    public String toString() {
        return sql;
    }
}

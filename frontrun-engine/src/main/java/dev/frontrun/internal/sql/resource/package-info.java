/**
 * Stage 4: resource ids and access kinds. {@link dev.frontrun.internal.sql.resource.AccessSetBuilder} implements
 * the weak/strong scheme documented in the {@code dev.frontrun.sql} package so that row, table and
 * endpoint accesses conflict soundly under plain string equality of ids.
 *
 * <h2>{@link UncommittedWrites}</h2>
 *
 * <p>PostgreSQL has no dirty reads: a plain {@code SELECT} (no {@code FOR …} clause, no writes) sees
 * only committed data and takes no row lock, so whether it runs before or after another transaction's
 * uncommitted {@code INSERT}/{@code UPDATE}/{@code DELETE} changes nothing; only that transaction's
 * commit (which announces its writes, see the proxy's transaction state) changes what it sees. Every
 * other statement may wait for the uncommitted write's row lock, or see the row it inserted in a
 * unique index, so it must still be ordered against it. Hence two announcements:
 * <ul>
 *   <li>every statement that is not a plain read also touches the <em>lock twin</em> of each data
 *       resource it touches ({@code lock:sql:owners:(1)}), with the same kind: two such statements on
 *       one row conflict exactly when their data accesses did;</li>
 *   <li>a statement whose writes stay uncommitted (inside a transaction below SERIALIZABLE) announces
 *       them on the lock twin only, and reads the data resource instead (it still reads the newest
 *       committed version): a plain read of another transaction then commutes with it, a commit of
 *       another transaction still does not.</li>
 * </ul>
 * Only row-level DML defers its writes ({@link UncommittedWrites#deferrable}): {@code TRUNCATE}, {@code LOCK TABLE},
 * DDL and opaque statements take locks that block even plain reads, so their writes stay as they are.
 * Never deferred either: the keys a table generates and sequences (not transactional: {@code nextval}
 * is seen at once), the lock state NOWAIT and SKIP LOCKED read, a write of the whole database. At
 * SERIALIZABLE the writes stay as they are: PostgreSQL's SSI orders a serializable read and write of
 * one row whichever came first.
 *
 * <h2>{@link AccessSetBuilder}</h2>
 *
 * <p>What it announces:
 * <ul>
 *   <li>row r of t: the kind on {@code sql:t:(r)}, plus the weak kind on {@code sql:t};</li>
 *   <li>all of t: the strong kind on {@code sql:t}; a predicate read also reads {@code sql:t#members};</li>
 *   <li>inserting or deleting rows of t: a weak write on {@code sql:t#members};</li>
 *   <li>every statement touching data: the weak kind of its strongest direction on {@code sql:*};</li>
 *   <li>an opaque statement: the strong kind on {@code sql:*}.</li>
 * </ul>
 * Redundant accesses to one resource are dropped: WRITE subsumes everything, READ and WEAK_WRITE
 * each subsume WEAK_READ.
 */
package dev.frontrun.internal.sql.resource;

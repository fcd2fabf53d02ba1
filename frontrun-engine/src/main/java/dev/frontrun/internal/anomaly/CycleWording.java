package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Isolation;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.anomaly.TraceModel.Tx;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The words a finding of the classifier is told in: what the cycle means and what prevents it. */
final class CycleWording {

    private CycleWording() {}

    static String summary(AnomalyKind kind, String adya, String name, List<Dependency> hops, boolean request) {
        Dependency first = hops.get(0);
        return switch (kind) {
            case WRITE_SKEW ->
                adya.startsWith("G2 over")
                        ? "each " + (request ? "request" : "transaction")
                                + " checked a predicate (a count, an existence check)"
                                + " and then inserted or deleted rows the other's check would have matched: neither saw the other's"
                                + " change — phantoms."
                        : "each " + (request ? "request" : "transaction") + " read data that another then changed,"
                                + " and neither saw the other's write; each then wrote on the strength of what it had read.";
            case PHANTOM_READ ->
                first.from() + " read a predicate twice; " + first.to() + " inserted or deleted a matching row in"
                        + " between and committed, so the second read saw a phantom.";
            case NON_REPEATABLE_READ ->
                name.startsWith("Read skew")
                        ? first.from() + " saw part of " + first.to()
                                + "'s changes but not all: one read came before its" + " commit and another after."
                        : first.from() + " read " + first.item() + " twice and got two different versions: "
                                + first.to() + "'s committed write came in between.";
            case WRITE_WRITE ->
                "each overwrote a write of the other: a cycle of write-write dependencies (dirty write).";
            default -> "";
        };
    }

    static String prevention(AnomalyKind kind, String adya, boolean request, List<Dependency> hops) {
        if (request) {
            return "The database sees no such cycle between transactions, because the reads and the writes are in"
                    + " different transactions: no isolation level can prevent it. Do the read and the write in one"
                    + " transaction and lock what was read (SELECT … FOR UPDATE), or check with optimistic locking"
                    + " (a @Version column).";
        }
        return switch (kind) {
            case WRITE_SKEW ->
                adya.startsWith("G2 over")
                        ? "Only SERIALIZABLE prevents it in PostgreSQL (REPEATABLE READ is snapshot isolation, and locking"
                                + " the rows read cannot lock rows that do not exist yet); or let a unique or exclusion constraint"
                                + " enforce the rule, or serialize the writers on a row they all lock (SELECT … FOR UPDATE on a"
                                + " parent row)."
                        : "Only SERIALIZABLE prevents it in PostgreSQL (its REPEATABLE READ is snapshot isolation,"
                                + " which allows G2-item); or lock the rows read (SELECT … FOR UPDATE), or let a constraint enforce"
                                + " the rule.";
            case PHANTOM_READ ->
                "REPEATABLE READ or SERIALIZABLE read the whole transaction from one snapshot, so the"
                        + " predicate gives the same rows twice.";
            case NON_REPEATABLE_READ ->
                "REPEATABLE READ or SERIALIZABLE read the whole transaction from one snapshot,"
                        + " so every read agrees.";
            case WRITE_WRITE ->
                "PostgreSQL's row locks prevent dirty writes at every isolation level; a write cycle in"
                        + " the trace means the writes were classified coarser than they are (table level) or took no locks.";
            default -> "";
        };
    }

    static String step(Op op) {
        return "step " + op.position + " (" + op.tx.name + ": " + sqlOf(op) + ")";
    }

    static String describe(Op op) {
        return op == null ? "?" : "step " + op.position + " (" + sqlOf(op) + ")";
    }

    /** The statement with bound values, without the rows and tags the trace line adds. */
    static String sqlOf(Op op) {
        return shorten(op.sql.statement());
    }

    static String shorten(String statement) {
        String s = statement.strip();
        return s.length() <= 140 ? s : s.substring(0, 139) + "…";
    }

    static String level(Tx tx) {
        return tx.isolation.sql() + " (" + tx.isolationSource + ")";
    }

    /** {@code READ COMMITTED (no level was set: …)}, or each transaction's level where they differ. */
    static String levelsOf(List<Tx> txs) {
        Set<Isolation> distinct = new LinkedHashSet<>();
        Set<String> sources = new LinkedHashSet<>();
        for (Tx t : txs) {
            distinct.add(t.isolation);
            sources.add(t.isolationSource == null ? "" : t.isolationSource.replaceAll(" at step \\d+", ""));
        }
        if (distinct.size() == 1) {
            return distinct.iterator().next().sql() + " (" + String.join("; ", sources) + ")";
        }
        List<String> each = new ArrayList<>();
        for (Tx t : txs) {
            each.add(t.name + " " + t.isolation.sql());
        }
        return String.join(", ", each) + " (" + String.join("; ", sources) + ")";
    }
}

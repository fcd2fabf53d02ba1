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

    /** A lost update on a store's key ({@link StoreCycles}): {@code a} read it, {@code b} wrote it, {@code a} overwrote. */
    static String storeLostUpdate(
            String key,
            StoreCycles.StoreOp basis,
            StoreCycles.StoreOp otherRead,
            StoreCycles.StoreOp lost,
            StoreCycles.StoreOp write) {
        String a = write.thread();
        String b = lost.thread();
        String store = write.facts().store();
        StringBuilder text = new StringBuilder("Lost update (Adya P4) at request level, on ")
                .append(store)
                .append(":\n");
        readsThenOther(text, key, basis, otherRead, lost, "wrote");
        text.append("  step ")
                .append(write.position())
                .append("  ")
                .append(a)
                .append(" wrote ")
                .append(key)
                .append(" with a value that may rest on its read at step ")
                .append(basis.position())
                .append(", which did not see ")
                .append(b)
                .append("'s write: ")
                .append(operations(write))
                .append('\n');
        text.append("  → ")
                .append(b)
                .append("'s update of ")
                .append(key)
                .append(" is lost: ")
                .append(a)
                .append(" overwrote it.\n");
        keyCycle(text, a, b, key);
        text.append(
                "redis".equals(store)
                        ? "  Redis runs each command alone, but nothing ties a read to a later write: make them one command"
                                + " (INCR, SET … GET, a Lua script declaring the key), or WATCH the key before reading it and"
                                + " write in MULTI … EXEC, which then fails if the key changed in between."
                        : "  The store runs each operation alone, but nothing ties a read to a later write: make them one"
                                + " operation of the store.");
        return text.toString();
    }

    /**
     * A check acted on after its value changed ({@link StoreCycles}): {@code a} read the key, {@code b} changed it, and
     * {@code a} changed it after with a write that builds on the value it finds (an increment), so no write is lost:
     * what is wrong is the decision {@code a} took on its read.
     */
    static String storeStaleCheck(
            String key,
            StoreCycles.StoreOp basis,
            StoreCycles.StoreOp otherRead,
            StoreCycles.StoreOp other,
            StoreCycles.StoreOp write) {
        String a = write.thread();
        String b = other.thread();
        String store = write.facts().store();
        StringBuilder text = new StringBuilder("Check-then-act at request level, on ")
                .append(store)
                .append(" (the shape of a lost update, Adya P4, but no write is lost):\n");
        readsThenOther(text, key, basis, otherRead, other, "changed");
        text.append("  step ")
                .append(write.position())
                .append("  ")
                .append(a)
                .append(" changed ")
                .append(key)
                .append(" on the strength of its read at step ")
                .append(basis.position())
                .append(", which did not see ")
                .append(b)
                .append("'s change: ")
                .append(operations(write))
                .append('\n');
        text.append("  → ")
                .append(store)
                .append(" applied both changes, but ")
                .append(
                        otherRead != null
                                ? "each request acted on a value the other then changed"
                                : a + " acted on a value " + b + " had since changed")
                .append(": a check made on the read no longer holds.\n");
        keyCycle(text, a, b, key);
        text.append(
                "redis".equals(store)
                        ? "  Redis runs each command alone, but nothing ties the read to the change: change first and"
                                + " decide on the value the command returns (INCR returns the new count: undo it past the"
                                + " limit), or check and change in one Lua script declaring the key."
                        : "  The store runs each operation alone, but nothing ties the read to the change: change first"
                                + " and decide on the value the operation returns, or check and change in one operation"
                                + " of the store.");
        return text.toString();
    }

    /**
     * A stale cache ({@link StoreCycles}): {@code a} read a row, {@code b} wrote the row and the cache's key, and
     * {@code a} then wrote the key with what it had read.
     */
    static String staleCache(
            String row, String key, Op basis, Op update, StoreCycles.StoreOp evict, StoreCycles.StoreOp write) {
        String a = write.thread();
        String b = evict.thread();
        String store = write.facts().store();
        StringBuilder text = new StringBuilder("Stale cache (Adya G-single, across the database and ")
                .append(store)
                .append(") at request level:\n");
        text.append("  step ")
                .append(basis.position)
                .append("  ")
                .append(a)
                .append(" read ")
                .append(row)
                .append(": ")
                .append(sqlOf(basis))
                .append('\n');
        text.append("  step ")
                .append(update.position)
                .append("  ")
                .append(b)
                .append(" wrote ")
                .append(row)
                .append(
                        update.tx.autocommit
                                ? " (autocommit)"
                                : update.tx.endPosition >= 0 ? " and committed at step " + update.tx.endPosition : "")
                .append(": ")
                .append(sqlOf(update))
                .append('\n');
        text.append("  step ")
                .append(evict.position())
                .append("  ")
                .append(b)
                .append(" wrote ")
                .append(key)
                .append(": ")
                .append(operations(evict))
                .append('\n');
        text.append("  step ")
                .append(write.position())
                .append("  ")
                .append(a)
                .append(" wrote ")
                .append(key)
                .append(" with a value that may rest on its read at step ")
                .append(basis.position)
                .append(", which did not see ")
                .append(b)
                .append("'s write: ")
                .append(operations(write))
                .append('\n');
        text.append("  → the cache kept the value ")
                .append(a)
                .append(" read before ")
                .append(b)
                .append("'s update: ")
                .append(key)
                .append(" no longer matches ")
                .append(row)
                .append(", and ")
                .append(b)
                .append("'s write of it is lost.\n");
        text.append("  cycle: ")
                .append(a)
                .append(" --rw ")
                .append(row)
                .append("--> ")
                .append(b)
                .append(" --ww ")
                .append(key)
                .append("--> ")
                .append(a)
                .append('\n');
        text.append("  The database does not see ")
                .append(store)
                .append(", so no isolation level prevents it; nor does evicting after the commit, since a fill from"
                        + " an older read can still come after the eviction. Fill the cache only with a value newer"
                        + " than the one it holds")
                .append("redis".equals(store) ? " (a version compared in a Lua script)" : "")
                .append(", or hold one lock over the read and the fill that writers take too; a time to live bounds"
                        + " how long it stays stale.");
        return text.toString();
    }

    /** A store step's operations as sent, led by the store: {@code redis SET counter 6}. */
    private static String operations(StoreCycles.StoreOp op) {
        List<String> operations = new ArrayList<>();
        op.facts().operations().forEach(words -> operations.add(String.join(" ", words)));
        return shorten(op.facts().store() + " " + String.join("; ", operations));
    }

    /**
     * The reads a store's race rests on, then the other request's write: both reads on one line when both requests
     * read the key, else the one read; {@code verb} says what the write did ({@code wrote}, {@code changed}).
     */
    private static void readsThenOther(
            StringBuilder text,
            String key,
            StoreCycles.StoreOp basis,
            StoreCycles.StoreOp otherRead,
            StoreCycles.StoreOp other,
            String verb) {
        if (otherRead != null) {
            StoreCycles.StoreOp first = otherRead.position() < basis.position() ? otherRead : basis;
            StoreCycles.StoreOp second = first == basis ? otherRead : basis;
            text.append("  both requests read ")
                    .append(key)
                    .append(" before either ")
                    .append(verb)
                    .append(" it: ")
                    .append(first.thread())
                    .append(" at step ")
                    .append(first.position())
                    .append(", ")
                    .append(second.thread())
                    .append(" at step ")
                    .append(second.position())
                    .append('\n');
        } else {
            text.append("  step ")
                    .append(basis.position())
                    .append("  ")
                    .append(basis.thread())
                    .append(" read ")
                    .append(key)
                    .append(": ")
                    .append(operations(basis))
                    .append('\n');
        }
        text.append("  step ")
                .append(other.position())
                .append("  ")
                .append(other.thread())
                .append(" ")
                .append(verb)
                .append(" ")
                .append(key)
                .append(": ")
                .append(operations(other))
                .append('\n');
    }

    /** The cycle of a race on one key: {@code a --rw key--> b --ww key--> a}. */
    private static void keyCycle(StringBuilder text, String a, String b, String key) {
        text.append("  cycle: ")
                .append(a)
                .append(" --rw ")
                .append(key)
                .append("--> ")
                .append(b)
                .append(" --ww ")
                .append(key)
                .append("--> ")
                .append(a)
                .append('\n');
    }
}

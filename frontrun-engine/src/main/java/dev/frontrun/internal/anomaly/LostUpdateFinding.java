package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Statement;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly.Level;
import dev.frontrun.AnomalyKind;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Words a lost update (Adya P4) so the reader sees whose write was overwritten and how to stop it. At request level
 * no isolation level can; at transaction level the advice depends on the level in force.
 */
final class LostUpdateFinding {

    private LostUpdateFinding() {}

    /** The finding of {@code lu} at {@code level}, with the steps, the cycle and how to prevent it. */
    static Finding of(TraceModel model, Level level, DependencyGraph.LostUpdate lu) {
        Op b = lu.basis();
        Op s = lu.lost();
        Op w = lu.overwrite();
        String item = model.label(lu.item());
        String writer = DependencyGraph.node(w.tx, level);
        String other = DependencyGraph.node(s.tx, level);
        Dependency rw = new Dependency(
                Type.RW,
                writer,
                other,
                item,
                new Statement(b.position, b.tx.name),
                new Statement(s.position, s.tx.name),
                false);
        Dependency ww = new Dependency(
                Type.WW,
                other,
                writer,
                item,
                new Statement(s.position, s.tx.name),
                new Statement(w.position, w.tx.name),
                false);
        StringBuilder text = new StringBuilder();
        boolean request = level == Level.REQUEST;
        text.append("Lost update (Adya P4) ")
                .append(
                        request
                                ? "at request level, across transactions: no isolation level can prevent it"
                                : "at transaction level, under "
                                        + CycleWording.levelsOf(List.of(b.tx, s.tx, w.tx).stream()
                                                .distinct()
                                                .toList()))
                .append(":\n");
        if (b == w) {
            text.append("  step ")
                    .append(w.position)
                    .append("  ")
                    .append(w.tx.name)
                    .append(" read and wrote ")
                    .append(item)
                    .append(" without seeing step ")
                    .append(s.position)
                    .append(": ")
                    .append(CycleWording.sqlOf(w))
                    .append('\n');
        } else {
            text.append("  step ")
                    .append(b.position)
                    .append("  ")
                    .append(b.tx.name)
                    .append(" read ")
                    .append(item)
                    .append(": ")
                    .append(CycleWording.sqlOf(b))
                    .append('\n');
            text.append("  step ")
                    .append(s.position)
                    .append("  ")
                    .append(s.tx.name)
                    .append(" wrote ")
                    .append(item)
                    .append(s.tx.endPosition >= 0 ? " and committed at step " + s.tx.endPosition : "")
                    .append(": ")
                    .append(CycleWording.sqlOf(s))
                    .append('\n');
            if (lu.reread() != null) {
                Op r = lu.reread();
                text.append("  step ")
                        .append(r.position)
                        .append("  ")
                        .append(r.tx.name)
                        .append(" read ")
                        .append(item)
                        .append(" again, now with ")
                        .append(s.tx.name)
                        .append("'s write: ")
                        .append(CycleWording.sqlOf(r))
                        .append('\n');
            }
            text.append("  step ")
                    .append(w.position)
                    .append("  ")
                    .append(w.tx.name)
                    .append(" wrote ")
                    .append(item)
                    .append(" with values that may rest on the read at step ")
                    .append(b.position)
                    .append(", which did not see ")
                    .append(s.tx.name)
                    .append("'s write: ")
                    .append(CycleWording.sqlOf(w))
                    .append('\n');
            if (lu.reread() != null) {
                text.append(
                        ormIssued(w)
                                ? "    (re-reading does not help when the values written come from the first read: Hibernate's"
                                        + " merge of a detached entity loads the row again, then copies the stale detached state over it)\n"
                                : "    (re-reading does not help when the values written come from the first read)\n");
            }
        }
        text.append("  → ")
                .append(s.tx.name)
                .append("'s update of ")
                .append(item)
                .append(" is lost: ")
                .append(w.tx.name)
                .append(" overwrote it.\n");
        text.append("  cycle: ")
                .append(rw.from())
                .append(" --rw ")
                .append(item)
                .append("--> ")
                .append(other)
                .append(" --ww ")
                .append(item)
                .append("--> ")
                .append(writer)
                .append('\n');
        if (request) {
            text.append("  PostgreSQL sees no cycle: ")
                    .append(b.tx.name)
                    .append(" only read, and ")
                    .append(w.tx.name)
                    .append(" ran after ")
                    .append(s.tx.name)
                    .append(
                            " had committed, so these transactions are serializable at every isolation level — the read and the write"
                                    + " are in different transactions.")
                    .append(
                            ormIssued(w)
                                    ? " Spring code does this when it loads an entity in one transaction and saves the detached"
                                            + " copy in another: Hibernate's merge copies the whole stale state back, also onto columns"
                                            + " the request never meant to change."
                                    : "")
                    .append(" Prevent it with"
                            + " optimistic locking (a @Version column: the stale UPDATE … WHERE id = ? AND version = ?"
                            + " then matches no row and fails), or read and write in one transaction, locking the row"
                            + " (SELECT … FOR UPDATE).");
        } else if (w.tx.isolation.snapshotPerTransaction()) {
            text.append("  Under ")
                    .append(w.tx.isolation.sql())
                    .append(" PostgreSQL aborts such a write with SQLSTATE 40001;"
                            + " the isolation level in force may not be the one the trace shows (")
                    .append(w.tx.isolationSource)
                    .append(").");
        } else {
            text.append("  Under ")
                    .append(w.tx.isolation.sql())
                    .append(" each statement sees the newest committed data,"
                            + " so nothing stops a write computed from an older read. REPEATABLE READ or SERIALIZABLE make"
                            + " PostgreSQL abort the later writer with SQLSTATE 40001 (the application retries); or lock the row"
                            + " when reading it (SELECT … FOR UPDATE), compute the new value in the UPDATE itself"
                            + " (SET n = n + 1), or guard the write with a version column.");
        }
        Set<Integer> positions = new LinkedHashSet<>(List.of(b.position, s.position, w.position));
        return new Finding(
                AnomalyKind.LOST_UPDATE,
                level,
                "P4",
                List.of(writer, other),
                List.of(rw, ww),
                text.toString(),
                positions);
    }

    /** Whether Hibernate issued the statement (its inspector tagged it with the entities it writes). */
    private static boolean ormIssued(Op op) {
        return op.sql != null && op.sql.tag() != null;
    }
}

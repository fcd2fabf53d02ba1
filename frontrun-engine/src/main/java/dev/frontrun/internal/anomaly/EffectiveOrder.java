package dev.frontrun.internal.anomaly;

import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Orders a statement that waited for a lock where it took effect, not where it was sent, so versions are read right.
 * A statement the scheduler saw block (waiting for a lock a paused transaction held) took effect
 * after the lock was released. Where the scheduler resumed it, if it held it paused; otherwise at the
 * first later COMMIT or ROLLBACK of a thread it waited for (or of any other thread, if the reason
 * names none), and before its own thread's next step.
 */
final class EffectiveOrder {

    private EffectiveOrder() {}

    /** Sets the order of every op of {@code ops} that the scheduler saw block. */
    static void assign(List<TraceStep> trace, List<Op> ops) {
        double scale = 1.0 / (2.0 * (trace.size() + 2));
        for (Op op : ops) {
            TraceStep.Blocked blocked = op.traceStep.blocked();
            if (blocked != null) {
                op.order = orderAfterWait(trace, op.position, op.thread, blocked, op.position * scale);
            }
        }
    }

    /** Where a step at {@code position} that waited as {@code blocked} took effect (see {@link #assign}). */
    private static double orderAfterWait(
            List<TraceStep> trace, int position, String thread, TraceStep.Blocked blocked, double tiebreak) {
        if (blocked.resumedAt() >= 0) {
            TraceStep resume = trace.stream()
                    .filter(s -> s.position() == blocked.resumedAt())
                    .findFirst()
                    .orElseThrow();
            return resume.blocked() == null
                    ? resume.position()
                    : orderAfterWait(trace, resume.position(), thread, resume.blocked(), tiebreak); // it waited again
        }
        Set<String> holders = new LinkedHashSet<>(blocked.holders());
        holders.remove(thread);
        int next = Integer.MAX_VALUE;
        for (TraceStep s : trace) {
            if (s.position() > position && s.threadName().equals(thread)) {
                next = s.position();
                break;
            }
        }
        for (TraceStep s : trace) {
            if (s.position() <= position || s.position() >= next) {
                continue;
            }
            SqlStep release = TraceModel.sqlOf(s);
            if (release != null
                    && (release.op() == TxOp.COMMIT || release.op() == TxOp.ROLLBACK)
                    && !s.threadName().equals(thread)
                    && (holders.isEmpty() || holders.contains(s.threadName()))) {
                return s.position() + 0.5 + tiebreak;
            }
        }
        return next == Integer.MAX_VALUE ? position + 0.5 : next - 0.5 + tiebreak;
    }
}

package dev.frontrun.internal.advice;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.Anomaly;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Result.CheckedAdvice;
import java.util.Optional;

/**
 * Which isolation level an anomaly's advice recommends, and what re-running the exploration at that
 * level showed. The advice is only worth giving once the database has confirmed it: a lost update
 * whose read and write sit in different transactions of a request survives every level, and saying
 * "use REPEATABLE READ" there sends the user down a fix that does not work.
 */
public final class IsolationAdvice {

    private IsolationAdvice() {}

    /**
     * The weakest PostgreSQL level that prevents the transaction-level anomaly of {@code analysis},
     * if the transactions involved ran below it; empty when no level is recommended (no anomaly, a
     * request-level one only, or one no level addresses).
     */
    public static Optional<Isolation> levelToCheck(Analysis analysis) {
        Optional<Finding> finding = analysis.transactionFinding();
        if (finding.isEmpty()) {
            return Optional.empty();
        }
        Isolation needed = switch (finding.get().kind()) {
            case LOST_UPDATE, NON_REPEATABLE_READ, PHANTOM_READ -> Isolation.REPEATABLE_READ;
            case WRITE_SKEW -> Isolation.SERIALIZABLE;
            case DIRTY_READ, WRITE_WRITE, STALE_CACHE -> null;
        };
        if (needed == null) {
            return Optional.empty();
        }
        Isolation weakest = analysis.transactions().stream()
                .map(TransactionInfo::isolation)
                .filter(level -> level != null)
                .min(Enum::compareTo)
                .orElse(Isolation.READ_COMMITTED);
        return weakest.compareTo(needed) < 0 ? Optional.of(needed) : Optional.empty();
    }

    /**
     * What the exploration re-run at {@code level} says of the advice to use it. The re-run counted a thread ended
     * by a serialization failure or deadlock as told ({@link RetriesTold}), so a failure there is an interleaving
     * that breaks the invariant with nobody told: the level does not fix it, retry or not.
     */
    public static CheckedAdvice checked(Isolation level, Result rerun) {
        CheckedAdvice.Effect effect = switch (rerun.verdict()) {
            case HOLDS -> rerun.retriesTold() ? CheckedAdvice.Effect.FIXES_WITH_RETRY : CheckedAdvice.Effect.FIXES;
            case FAILS -> CheckedAdvice.Effect.NOT_FIXED;
            default -> CheckedAdvice.Effect.NOT_CHECKED;
        };
        return new CheckedAdvice(
                level, effect, rerun.anomaly().map(Anomaly::level).orElse(null), rerun);
    }
}

package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Verdict;

/**
 * The verdict an exploration ends with, and why it is inconclusive: HOLDS only when the whole tree was explored and
 * nothing failed or broke.
 *
 * @param verdict   the verdict
 * @param because   why it is ERROR or INCONCLUSIVE, or null
 * @param exhausted whether every trace the strategy set out to cover was covered
 */
record VerdictDecision(Verdict verdict, String because, boolean exhausted) {

    /**
     * How the exploration ended, each null when it did not end so.
     *
     * @param broken       what broke the test (ERROR)
     * @param failing      the first failing execution (FAILS)
     * @param inconclusive what made an execution inconclusive (a time limit, nondeterminism)
     * @param budgetHit    which budget ran out, said for people
     */
    record Ends(Failure broken, Judged failing, Failure inconclusive, String budgetHit) {}

    static VerdictDecision of(ExplorationPlan.Search search, boolean replaying, boolean policyExhausted, Ends ends) {
        boolean bounded = search.preemptionBound() != null;
        boolean exhausted = !replaying
                && !bounded
                && ends.broken() == null
                && policyExhausted
                && ends.budgetHit() == null
                && ends.inconclusive() == null;
        if (ends.broken() != null) {
            return new VerdictDecision(Verdict.ERROR, ends.broken().summary(), exhausted);
        }
        if (ends.failing() != null) {
            return new VerdictDecision(Verdict.FAILS, null, exhausted);
        }
        if (exhausted) {
            return new VerdictDecision(Verdict.HOLDS, null, true);
        }
        String because = ends.inconclusive() != null
                ? ends.inconclusive().summary()
                : ends.budgetHit() != null
                        ? ends.budgetHit()
                        : bounded && !replaying
                                ? "explored the traces DPOR reaches within " + search.preemptionBound()
                                        + " preemptions; interleavings that need more were not run"
                                : replaying
                                        ? "a replay runs one schedule; it proves nothing about the others"
                                        : search.strategy()
                                                + " cannot prove a property: only DPOR explores every trace";
        return new VerdictDecision(Verdict.INCONCLUSIVE, because, false);
    }
}

package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Anomaly;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Result.CheckedAdvice;
import dev.frontrun.Schedule;
import dev.frontrun.Step;
import dev.frontrun.Verdict;
import dev.frontrun.internal.sql.SqlStates;
import dev.frontrun.internal.sql.StatementOutcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The words both reports use for the same facts — the verdict, the level an anomaly lives at, a
 * statement's outcome, the replay call — so that the text explanation and the HTML report cannot
 * drift apart. SQLSTATE meanings come from {@link SqlStates}.
 */
final class Wording {

    private Wording() {}

    /** {@code property HOLDS}, {@code property FAILS}, {@code INCONCLUSIVE} or {@code ERROR}. */
    static String headline(Verdict verdict) {
        return switch (verdict) {
            case HOLDS -> "property HOLDS";
            case FAILS -> "property FAILS";
            case INCONCLUSIVE -> "INCONCLUSIVE";
            case ERROR -> "ERROR";
        };
    }

    /** The headline with what an inconclusive verdict means. */
    static String headlineExplained(Verdict verdict) {
        return headline(verdict)
                + switch (verdict) {
                    case INCONCLUSIVE -> " (no failure found, but not everything was explored)";
                    case ERROR ->
                        " (the test is broken, not a race: the invariant threw, or the setup or environment failed)";
                    default -> "";
                };
    }

    /**
     * How far an exploration the budget stopped got, and the budget that would likely finish it. {@code ≈ 40 % of
     * the exploration tree done (an estimate); maxExecutions(25000) would likely finish it (≈ 9 min at this pace)}.
     * Empty when no budget ran out or nothing can be estimated.
     */
    static Optional<String> reach(Result.Reach reach) {
        if (reach == null || reach.ranOut() == null || !reach.estimated()) {
            return Optional.empty();
        }
        double percent = reach.treeDone() * 100;
        String share = String.format(Locale.ROOT, percent < 10 ? "%.1f" : "%.0f", percent);
        String budget = "maxExecutions(" + reach.likelyExecutions() + ")";
        if (reach.ranOut() == Result.Reach.Limit.TOTAL_TIMEOUT) {
            long minutes = Math.max(1, (reach.likelyTime().toSeconds() + 59) / 60);
            budget = "totalTimeout(Duration.ofMinutes(" + minutes + ")) and " + budget;
        }
        return Optional.of("≈ " + share + " % of the exploration tree done (an estimate); " + budget
                + " would likely finish it (≈ " + minutesOrSeconds(reach.likelyTime()) + " in all at this pace)");
    }

    /**
     * What the exploration's corpus did, a line each. The stored schedule that failed again, or those replayed that
     * passed; the stale ones dropped, and why; the counterexample added.
     */
    static List<String> corpus(Result.Corpus corpus) {
        if (corpus == null) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        String file = corpus.file().toString();
        if (corpus.failedAgain()) {
            lines.add("the schedule " + corpus.replayed().get(corpus.replayed().size() - 1) + " stored in " + file
                    + " failed again, replayed before exploring (nothing else was explored)");
        } else if (!corpus.replayed().isEmpty()) {
            int n = corpus.replayed().size();
            lines.add(n + (n == 1 ? " schedule" : " schedules") + " stored in " + file + " replayed first, and passed");
        }
        if (!corpus.stale().isEmpty()) {
            StringBuilder stale = new StringBuilder("dropped from " + file + ", stale: ");
            for (int i = 0; i < corpus.stale().size(); i++) {
                Result.Corpus.Stale dropped = corpus.stale().get(i);
                stale.append(i == 0 ? "" : "; ")
                        .append(dropped.schedule())
                        .append(" (")
                        .append(
                                switch (dropped.reason()) {
                                    case PROGRAM_CHANGED -> "the program changed: the replay cannot follow it";
                                    case OTHER_STEP_MODEL -> "recorded under other instrumentation settings";
                                    case UNREADABLE -> "not a schedule";
                                })
                        .append(')');
            }
            lines.add(stale.toString());
        }
        if (corpus.added() != null) {
            lines.add("the counterexample was added to " + file + "; the next run replays it first");
        }
        return lines;
    }

    /** {@code 42 s}, {@code 12 min}. */
    private static String minutesOrSeconds(Duration time) {
        long seconds = time.toSeconds();
        return seconds < 120 ? Math.max(1, seconds) + " s" : (seconds + 30) / 60 + " min";
    }

    /** {@code 1 execution}, {@code 3 executions}. */
    static String executions(int count) {
        return count + (count == 1 ? " execution" : " executions");
    }

    /**
     * The line saying which threads were explored by symmetry: {@code spend-1 and spend-2 run one body: of the
     * executions that only swap them, one ran}.
     */
    static Optional<String> symmetry(List<List<String>> groups) {
        if (groups.isEmpty()) {
            return Optional.empty();
        }
        List<String> said = new ArrayList<>();
        for (List<String> group : groups) {
            said.add(String.join(", ", group.subList(0, group.size() - 1)) + " and " + group.get(group.size() - 1));
        }
        return Optional.of(String.join("; ", said) + " run one body: of the executions that only swap "
                + (groups.size() == 1 && groups.get(0).size() == 2 ? "them" : "threads of a group") + ", one ran");
    }

    /** Where the cycle lives: {@code between database transactions}, {@code between requests, across transactions}. */
    static String level(Anomaly.Level level) {
        return level == Anomaly.Level.TRANSACTION
                ? "between database transactions"
                : "between requests, across transactions";
    }

    /**
     * {@link #level} for the anomaly of {@code analysis}: a request-level one found with no SQL at all (a race through a
     * store beside the database) is just between requests. {@code analysis} is null for a trace without SQL.
     */
    static String level(Anomaly.Level level, Analysis analysis) {
        return level == Anomaly.Level.REQUEST && (analysis == null || analysis.sqlSteps() == 0)
                ? "between requests"
                : level(level);
    }

    /** {@link #levelExplained(Anomaly.Level)} for the anomaly of {@code analysis} ({@link #level(Anomaly.Level, Analysis)}). */
    static String levelExplained(Anomaly.Level level, Analysis analysis) {
        return level(level, analysis) + (level == Anomaly.Level.REQUEST ? " (no isolation level prevents it)" : "");
    }

    /** {@link #level} with what it means for the fix: no isolation level prevents a request-level anomaly. */
    static String levelExplained(Anomaly.Level level) {
        return level(level) + (level == Anomaly.Level.REQUEST ? " (no isolation level prevents it)" : "");
    }

    /** {@code transaction level} or {@code request level}. */
    static String levelName(Anomaly.Level level) {
        return level == Anomaly.Level.TRANSACTION ? "transaction level" : "request level";
    }

    /** The analysis' finding that names {@code anomaly}, for its Adya name and cycle; {@code analysis} may be null. */
    static Optional<Analysis.Finding> finding(Analysis analysis, Anomaly anomaly) {
        return analysis == null
                ? Optional.empty()
                : analysis.finding().filter(f -> f.kind() == anomaly.kind() && f.level() == anomaly.level());
    }

    /** {@code 40001 (serialization failure)}. */
    static String sqlState(String sqlState) {
        return sqlState + " (" + SqlStates.meaning(sqlState) + ")";
    }

    /** What a failure inside a transaction did besides failing ({@code StatementOutcome.aborting}). */
    static final String ABORTS = "PostgreSQL aborts the transaction here (back to its newest savepoint, if any),"
            + " freeing its locks at once";

    /** How a statement ended when it did not simply succeed, e.g. {@code ✗ failed 40001 (serialization failure)}; empty if it did. */
    static String outcome(StatementOutcome outcome) {
        return switch (outcome.status()) {
            case OK -> "";
            case PENDING -> "(did not complete)";
            case FAILED ->
                "✗ failed" + (outcome.sqlState() == null ? "" : " " + sqlState(outcome.sqlState()))
                        + (outcome.aborting() ? ": " + ABORTS : "");
            case ROLLED_BACK -> "✗ rolled back: the transaction had been aborted by an error";
        };
    }

    /** The call that replays {@code schedule}: {@code .replay(Schedule.parse("0*2.1"))}. */
    static String replay(Schedule schedule) {
        return ".replay(Schedule.parse(\"" + schedule + "\"))";
    }

    /** The heading of a later run of an exploration in its report: a what-if level, a replay, or a run again. */
    static String laterRun(Isolation whatIf, Schedule replayed) {
        if (whatIf != null) {
            return "What if every transaction ran at " + whatIf.sql() + ": whatIf(Isolation." + whatIf.name() + ")";
        }
        return replayed != null ? "Replay of schedule " + replayed + ": " + replay(replayed) : "Run again";
    }

    /** The advice and what exploring again at its level showed, in one sentence. */
    static String checkedAdvice(CheckedAdvice advice) {
        String level = advice.level().sql();
        Result rerun = advice.rerun();
        return switch (advice.effect()) {
            case FIXES ->
                "at " + level + " it holds after every interleaving (" + executions(rerun.executions())
                        + " explored): use that level (@Transactional(isolation = Isolation."
                        + advice.level().name()
                        + ")); PostgreSQL then aborts a conflicting transaction with SQLSTATE 40001, which the application"
                        + " retries or reports";
            case FIXES_WITH_RETRY ->
                "at " + level + " it holds after every interleaving (" + executions(rerun.executions())
                        + " explored) once the losing transaction gets SQLSTATE 40001 (serialization failure) or 40P01"
                        + " (deadlock) and is retried: use that level and retry the aborted transaction (Spring: retry on"
                        + " ConcurrencyFailureException), and declare that answer in the test";
            case NOT_FIXED ->
                advice.anomalyLevel() == Anomaly.Level.REQUEST
                        ? "at " + level
                                + " this race is still found (request level: the read and the write are in different"
                                + " transactions) — no isolation level fixes it; use optimistic locking (a @Version column) or read"
                                + " and write in one transaction, locking the row (SELECT … FOR UPDATE)"
                        : "at " + level + " it still fails ("
                                + rerun.failure().map(f -> f.summary()).orElse("a failure")
                                + "): that isolation level does not fix it, retried or not";
            case NOT_CHECKED ->
                "not checked: the exploration at " + level + " ended " + headline(rerun.verdict())
                        + rerun.inconclusiveBecause()
                                .map(because -> " (" + because + ")")
                                .orElse("");
        };
    }

    /** What a run at a forced level counted as an answer ({@link Result#retriesTold()}), in one line. */
    static final String RETRIES_TOLD = "retries: threads ended by a serialization failure (40001) or deadlock (40P01)"
            + " counted as told, as a retry gets past them; declare that answer in the test";

    /** What a failure of threads run one after the other means, with how many interleavings fail. */
    static String serialFailure(Result result) {
        int failing = result.failingExecutions();
        int explored = result.executions();
        String count = failing == explored && result.exhausted()
                ? "all " + explored + " interleavings fail"
                : failing + " of " + explored + " interleavings explored fail";
        return "fails without any interleaving: the threads ran one after the other, so this is not a race — the"
                + " invariant or the code is wrong even sequentially (" + count + ")";
    }

    /** {@code thrown}'s stack trace as {@link Throwable#printStackTrace()} writes it. */
    static String stackTrace(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /** The most resources a store step's line names before it counts the rest. */
    private static final int STORE_RESOURCES_SHOWN = 4;

    /**
     * A store step as its line says it: the operations as sent, then what they touch, e.g.
     * {@code redis GET counter → reads redis:0:counter}, {@code redis MULTI; INCR a; EXEC → writes redis:0:a}.
     */
    static String storeStep(Step.StoreFacts facts) {
        String touched = storeAccesses(facts, STORE_RESOURCES_SHOWN);
        return storeOperations(facts) + (touched.isEmpty() ? "" : " → " + touched);
    }

    /** A store step's operations as sent, led by the store: {@code redis SET counter 6}. */
    static String storeOperations(Step.StoreFacts facts) {
        List<String> operations = new ArrayList<>();
        if (facts.atomic()) {
            operations.add("MULTI");
        }
        facts.operations().forEach(words -> operations.add(String.join(" ", words)));
        return facts.store() + " " + String.join("; ", operations);
    }

    /**
     * What a store step touches: {@code reads redis:0:a; writes redis:0:b}, at most {@code shown} resources of each
     * kind named (the rest counted), every one with a negative {@code shown}.
     */
    static String storeAccesses(Step.StoreFacts facts, int shown) {
        List<String> parts = new ArrayList<>();
        if (!facts.reads().isEmpty()) {
            parts.add("reads " + resources(facts.reads(), shown));
        }
        if (!facts.writes().isEmpty()) {
            parts.add("writes " + resources(facts.writes(), shown));
        }
        return String.join("; ", parts);
    }

    private static String resources(List<String> resources, int shown) {
        if (shown < 0 || resources.size() <= shown) {
            return String.join(", ", resources);
        }
        return String.join(", ", resources.subList(0, shown)) + " … (" + (resources.size() - shown) + " more)";
    }
}

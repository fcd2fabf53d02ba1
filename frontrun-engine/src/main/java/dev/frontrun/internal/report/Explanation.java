package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.DatabaseEvent;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.Anomaly;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlStep;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a result for people. The verdict and how much was explored, what failed, the anomaly
 * with its Adya name, the failing interleaving one step per line (for SQL: thread, transaction,
 * statement with bound values and rows, with the anomaly's steps marked), how reliably it
 * reproduces, and how to replay it.
 */
public final class Explanation {

    private Explanation() {}

    /** The text of {@code facts}, an exploration of {@code names} against {@code invariant}. */
    public static String of(Result facts, String invariant, List<String> names) {
        StringBuilder sb = new StringBuilder();
        sb.append("Frontrun: ")
                .append(Wording.headlineExplained(facts.verdict()))
                .append('\n');
        sb.append("  explored ")
                .append(Wording.executions(facts.executions()))
                .append(" of ")
                .append(names.size())
                .append(" threads ")
                .append(names)
                .append(" with ")
                .append(facts.strategy())
                .append(facts.exhausted() ? " (exhausted: every distinct interleaving ran)" : "")
                .append(" in ")
                .append(facts.elapsed().toMillis())
                .append(" ms\n");
        Wording.symmetry(facts.symmetric())
                .ifPresent(line -> sb.append("  symmetry: ").append(line).append('\n'));
        facts.notExplored()
                .forEach(note -> sb.append("  not explored: ").append(note).append('\n'));
        String why = facts.broken() ? "  error: " : "  inconclusive: ";
        facts.inconclusiveBecause()
                .ifPresent(because -> sb.append(why).append(because).append('\n'));
        Wording.corpus(facts.corpus().orElse(null))
                .forEach(line -> sb.append("  corpus: ").append(line).append('\n'));
        Wording.reach(facts.reach().orElse(null))
                .ifPresent(reach -> sb.append("  reach: ").append(reach).append('\n'));
        Failure failure = facts.failure().orElse(null);
        if (failure != null) {
            if (!facts.inconclusiveBecause().map(failure.summary()::equals).orElse(false)) {
                sb.append("  failure: ").append(failure.summary()).append('\n'); // a timeout is said once, above
            }
            if (failure.kind() == Failure.Kind.INVARIANT_VIOLATED) {
                sb.append("  invariant: ").append(invariant).append('\n');
            }
            if (failure instanceof Failure.NotSerializable notSerializable) {
                SerialWording.differences(notSerializable, Integer.MAX_VALUE)
                        .forEach(line -> sb.append("  ").append(line).append('\n'));
            }
        }
        if (facts.timings().serial().runs() > 0) {
            sb.append("  ").append(SerialWording.checked(facts, names)).append('\n');
        }
        facts.checkedAdvice()
                .ifPresent(advice -> sb.append("  advice (checked): ")
                        .append(Wording.checkedAdvice(advice))
                        .append('\n'));
        if (facts.retriesTold()) {
            sb.append("  ").append(Wording.RETRIES_TOLD).append('\n');
        }
        Analysis analysis = sqlAnalysis(facts);
        Anomaly anomaly = facts.anomaly().orElse(null);
        Analysis.Finding lead = analysis == null ? null : facts.leadingFinding().orElse(null);
        if (lead != null) {
            sb.append("  anomaly: ")
                    .append(lead.kind())
                    .append(" — Adya ")
                    .append(lead.adyaName())
                    .append(", ")
                    .append(Wording.levelExplained(lead.level(), analysis));
            if (!lead.description().isEmpty()) {
                sb.append("\n    ").append(lead.description().replace("\n", "\n    "));
            }
            sb.append('\n');
            if (!analysis.finding().equals(Optional.of(lead))) {
                analysis.finding()
                        .ifPresent(other -> sb.append("  (the trace also shows ")
                                .append(other.kind())
                                .append(' ')
                                .append(Wording.level(other.level()))
                                .append(", but the level that prevents it"
                                        + " does not fix the failure: see the advice)\n"));
            }
        } else if (anomaly != null) {
            sb.append("  anomaly: ")
                    .append(anomaly.kind())
                    .append(" — ")
                    .append(Wording.levelExplained(anomaly.level(), analysis));
            if (!anomaly.description().isEmpty()) {
                sb.append("\n    ").append(anomaly.description().replace("\n", "\n    "));
            }
            sb.append('\n');
        } else if (analysis != null && failure != null && failure.disproves()) {
            sb.append(
                    analysis.classified()
                            ? "  anomaly: none — no dependency cycle between the committed transactions, nor between requests\n"
                            : "  anomaly: not classified — the statements' tables and rows are unknown (see the notes)\n");
        }
        if (analysis != null) {
            database(sb, analysis, failure);
            for (String note : analysis.notes()) {
                sb.append("  note: ").append(note).append('\n');
            }
        }
        if (!facts.trace().isEmpty()) {
            if (analysis != null) {
                sqlTrace(
                        sb,
                        facts.trace(),
                        anomaly != null && analysis.anomaly().equals(Optional.of(anomaly))
                                ? analysis.marks()
                                : Map.of());
            } else {
                List<TraceStep> trace = facts.trace();
                boolean[] unshared = UnsharedSteps.of(trace);
                sb.append("  interleaving (").append(trace.size()).append(" steps):\n");
                for (int i = 0; i < trace.size(); i++) {
                    TraceStep step = trace.get(i);
                    int run = UnsharedSteps.runLength(trace, unshared, i);
                    if (run > 1) {
                        sb.append(String.format(
                                "    %3d  %-12s %s%n",
                                step.position(), step.threadName(), UnsharedSteps.describe(trace, i, run)));
                        i += run - 1;
                        continue;
                    }
                    sb.append(String.format(
                            "    %3d  %-12s %s%n", step.position(), step.threadName(), StepDescription.line(step)));
                    if (step.blockedReason() != null) {
                        sb.append("              (blocked: ")
                                .append(step.blockedReason())
                                .append(")\n");
                    }
                }
            }
        }
        if (facts.failsWithoutInterleaving()) {
            sb.append("  ").append(Wording.serialFailure(facts)).append('\n');
        }
        if (facts.failingExecutions() > 1 || facts.failed() && facts.failingExecutions() > 0 && facts.exhausted()) {
            sb.append("  failing executions: ")
                    .append(facts.failingExecutions())
                    .append(" of ")
                    .append(facts.executions());
            facts.failureGroups()
                    .forEach((group, count) ->
                            sb.append("; ").append(count).append(" × ").append(group));
            sb.append('\n');
        }
        if (facts.reproduceAttempts() > 0) {
            sb.append("  reproduced ")
                    .append(facts.reproduced())
                    .append('/')
                    .append(facts.reproduceAttempts())
                    .append(" times by replaying the schedule\n");
        }
        if (facts.counterexample().isPresent() && failure != null && failure.disproves()) {
            sb.append("  schedule: ").append(facts.counterexample().get()).append('\n');
            sb.append("  replay:   ")
                    .append(Wording.replay(facts.counterexample().get()))
                    .append('\n');
        }
        if (failure != null && failure.cause().isPresent()) {
            sb.append("  exception:\n").append(indent(stackTrace(failure.cause().get())));
        }
        if (failure != null && !failure.threadDumps().isEmpty()) {
            sb.append("  threads:\n").append(indent(failure.threadDumps()));
        }
        return sb.toString();
    }

    /** The SQL analysis of the failing trace, if it has SQL steps. */
    private static Analysis sqlAnalysis(Result facts) {
        return facts.analysis().sqlSteps() == 0 ? null : facts.analysis();
    }

    /** What the database decided: serialization failures, deadlocks, constraint errors, commits that rolled back. */
    private static void database(StringBuilder sb, Analysis analysis, Failure failure) {
        for (DatabaseEvent e : analysis.events()) {
            sb.append("  database: step ")
                    .append(e.position())
                    .append(" (")
                    .append(e.transaction())
                    .append(") ")
                    .append(e.meaning());
            if (e.sqlState() != null) {
                sb.append(", SQLSTATE ").append(e.sqlState());
            }
            if (e.detail() != null && !e.detail().isBlank()) {
                sb.append(": ").append(firstLine(e.detail()));
            }
            sb.append('\n');
            if (e.serializationFailure()) {
                String level = analysis.transaction(e.transaction())
                        .map(TransactionInfo::isolation)
                        .map(i -> " under " + i.sql())
                        .orElse("");
                sb.append("    PostgreSQL aborted ")
                        .append(e.transaction())
                        .append(level)
                        .append(" rather than let it commit a non-serializable result: a serialization failure, not an"
                                + " anomaly");
                sb.append(
                        failure != null && failure.kind() == Failure.Kind.THREAD_THREW
                                ? " — the exception reached the thread; the application must retry the transaction.\n"
                                : ".\n");
            } else if (e.deadlock()) {
                sb.append("    PostgreSQL's deadlock detector aborted ")
                        .append(e.transaction())
                        .append(" to break a cycle of row-lock waits.\n");
            }
        }
    }

    private static String firstLine(String text) {
        String t = text.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }

    /**
     * One line per step. Position, thread, transaction, statement with values and rows; marks on the anomaly's steps;
     * under a statement, the values that decide the race ({@link DecidingValues}), which a long statement's text cuts.
     */
    private static void sqlTrace(StringBuilder sb, List<TraceStep> trace, Map<Integer, List<String>> marks) {
        int threadWidth = 6;
        int txWidth = 11;
        for (TraceStep s : trace) {
            threadWidth = Math.max(threadWidth, s.threadName().length());
            if (s.step().detail() instanceof SqlStep sql) {
                txWidth = Math.max(
                        txWidth,
                        sql.transaction() == null ? 0 : sql.transaction().length());
            }
        }
        threadWidth = Math.min(threadWidth, 24);
        txWidth = Math.min(txWidth, 48);
        sb.append("  interleaving (")
                .append(trace.size())
                .append(" steps")
                .append(marks.isEmpty() ? "" : "; * marks the statements of the anomaly")
                .append("):\n");
        sb.append(String.format(
                Locale.ROOT,
                "     %3s  %-" + threadWidth + "s  %-" + txWidth + "s  %s%n",
                "#",
                "thread",
                "transaction",
                "statement → rows"));
        boolean[] unshared = UnsharedSteps.of(trace);
        DecidingValues deciding = DecidingValues.of(trace, position -> true);
        for (int i = 0; i < trace.size(); i++) {
            TraceStep s = trace.get(i);
            int run = UnsharedSteps.runLength(trace, unshared, i);
            if (run > 1) {
                sb.append(String.format(
                        Locale.ROOT,
                        "     %3d  %-" + threadWidth + "s  %-" + txWidth + "s  %s%n",
                        s.position(),
                        s.threadName(),
                        "",
                        UnsharedSteps.describe(trace, i, run)));
                i += run - 1;
                continue;
            }
            List<String> mark = marks.get(s.position());
            String tx = "";
            String text = StepDescription.line(s);
            String outcome = "";
            if (s.step().detail() instanceof SqlStep sql) {
                tx = sql.transaction() == null ? "" : sql.transaction();
                text = sql.statementWithRows();
                outcome = outcome(sql);
            }
            sb.append(String.format(
                    Locale.ROOT,
                    "   %s %3d  %-" + threadWidth + "s  %-" + txWidth + "s  %s%s",
                    mark == null ? " " : "*",
                    s.position(),
                    s.threadName(),
                    tx,
                    text,
                    outcome));
            if (mark != null) {
                sb.append("   ◀ ").append(String.join("; ", mark));
            }
            sb.append('\n');
            String values = DecidingValues.text(deciding.at(s.position()));
            if (!values.isEmpty()) {
                sb.append("          ").append(values).append('\n');
            }
            if (s.blockedReason() != null) {
                sb.append("          (blocked: ").append(s.blockedReason()).append(")\n");
            }
        }
    }

    private static String outcome(SqlStep sql) {
        String outcome = Wording.outcome(sql.outcome());
        return outcome.isEmpty() ? "" : "   " + outcome;
    }

    private static String stackTrace(Throwable t) {
        String text = Wording.stackTrace(t);
        String[] lines = text.split("\n");
        return lines.length <= 25 ? text : String.join("\n", List.of(lines).subList(0, 25)) + "\n\t...\n";
    }

    private static String indent(String text) {
        return "    " + text.strip().replace("\n", "\n    ") + "\n";
    }
}

package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.TransactionName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The short text a failing test prints. At most {@link #MAX_LINES} lines — the verdict, the anomaly
 * in one sentence, the conflicting statements, the checked advice, the replay call — so the cause is
 * read at a glance in a test log. Everything else (the whole interleaving, notes, the database's
 * decisions) is in {@link Explanation} and the HTML report.
 */
public final class Summary {

    /** The most lines a summary has, including the report's link appended after it. */
    public static final int MAX_LINES = 25;
    /** Lines kept free for the report's link and the pointer to the whole explanation. */
    private static final int TAIL = 2;

    private static final int MAX_STATEMENTS = 6;
    /** The longest line a summary has (but the replay call, kept whole to be copied). */
    static final int MAX_LINE_CHARS = 160;
    /** The most lines one long line is wrapped onto. */
    private static final int MAX_WRAPPED = 3;

    private Summary() {}

    /** The summary of {@code facts}, an exploration of {@code names} against {@code invariant}. */
    public static String of(Result facts, String invariant, List<String> names) {
        List<String> lines = new ArrayList<>();
        Optional<Analysis.Finding> lead = facts.leadingFinding();
        lines.add("Frontrun: " + Wording.headlineExplained(facts.verdict())
                + lead.map(f -> " — " + f.kind() + " " + Wording.level(f.level(), facts.analysis()) + " (Adya "
                                + f.adyaName() + ")")
                        .orElse(""));
        lines.add("  explored " + Wording.executions(facts.executions()) + " of " + names.size() + " threads " + names
                + " with " + facts.strategy() + (facts.exhausted() ? " (exhausted)" : "")
                + " in " + facts.elapsed().toMillis() + " ms");
        Wording.symmetry(facts.symmetric()).ifPresent(line -> lines.add("  symmetry: " + line));
        facts.notExplored().forEach(note -> lines.add("  not explored: " + firstLine(note)));
        Failure failure = facts.failure().orElse(null);
        facts.inconclusiveBecause()
                .ifPresent(
                        because -> lines.add((facts.broken() ? "  error: " : "  inconclusive: ") + firstLine(because)));
        Wording.reach(facts.reach().orElse(null)).ifPresent(reach -> lines.add("  reach: " + reach));
        if (failure instanceof Failure.Timeout timeout
                && facts.inconclusiveBecause().isPresent()) {
            diagnosisLines(lines, timeout.diagnosis()); // what the threads were waiting for, a line each
        }
        if (failure instanceof Failure.Deadlock) {
            waits(lines, failure.summary()); // who waits for whom is the finding: every thread's line, not the first
        } else if (failure != null
                && !facts.inconclusiveBecause().map(failure.summary()::equals).orElse(false)) {
            lines.add("  failure: " + firstLine(failure.summary()));
        }
        if (failure instanceof Failure.ThreadThrew threw) {
            RetryHint.of(threw).ifPresent(lines::add);
        }
        if (failure != null && failure.kind() == Failure.Kind.INVARIANT_VIOLATED) {
            lines.add("  invariant: " + firstLine(invariant));
        }
        if (failure instanceof Failure.NotSerializable notSerializable) {
            SerialWording.differences(notSerializable, SerialWording.SHOWN).forEach(line -> lines.add("  " + line));
        }
        if (facts.timings().serial().runs() > 0) {
            lines.add("  " + SerialWording.checked(facts, names));
        }
        lead.ifPresent(finding -> {
            Map<String, TransactionName> named = TransactionNames.of(facts.trace());
            lines.add("  anomaly: " + cycle(finding, named));
            TransactionNames.legend(facts.trace(), finding, named).forEach(line -> lines.add("    " + line));
            statements(lines, facts.trace(), finding);
        });
        if (lead.isEmpty() && failure != null && failure.disproves()) {
            memoryConflicts(lines, facts.trace());
        }
        facts.checkedAdvice().ifPresent(advice -> lines.add("  advice (checked): " + Wording.checkedAdvice(advice)));
        if (facts.retriesTold()) {
            lines.add("  " + Wording.RETRIES_TOLD);
        }
        if (facts.failsWithoutInterleaving()) {
            lines.add("  " + Wording.serialFailure(facts));
        }
        if (facts.failingExecutions() > 1) {
            StringBuilder groups = new StringBuilder(
                    "  failing executions: " + facts.failingExecutions() + " of " + facts.executions());
            facts.failureGroups()
                    .forEach((group, count) ->
                            groups.append("; ").append(count).append(" × ").append(group));
            lines.add(groups.toString());
        }
        Wording.corpus(facts.corpus().orElse(null)).forEach(line -> lines.add("  corpus: " + line));
        if (facts.reproduceAttempts() > 0) {
            lines.add("  reproduced " + facts.reproduced() + "/" + facts.reproduceAttempts()
                    + " times by replaying the schedule");
        }
        if (facts.counterexample().isPresent() && failure != null && failure.disproves()) {
            lines.add("  replay:   " + Wording.replay(facts.counterexample().get()));
        }
        wrap(lines);
        if (failure != null) {
            details(lines, failure);
        }
        if (!facts.trace().isEmpty() || failure != null) {
            lines.add("  more: result.explanation() has the whole interleaving ("
                    + facts.trace().size() + " steps), the database's decisions and the notes");
        }
        return String.join("\n", lines) + "\n";
    }

    /** A deadlock's diagnosis: its first line, then what each thread waits for, one line each. */
    private static void waits(List<String> lines, String diagnosis) {
        lines.add("  failure: " + diagnosis.strip().split("\n")[0].strip());
        diagnosisLines(lines, diagnosis);
    }

    /** The lines of a diagnosis after its first, one each, indented. */
    private static void diagnosisLines(List<String> lines, String diagnosis) {
        String[] waits = diagnosis.strip().split("\n");
        for (int i = 1; i < waits.length; i++) {
            if (i > MAX_STATEMENTS) {
                lines.add("    … (" + (waits.length - i) + " more in result.explanation())");
                return;
            }
            lines.add(shorten("    ", waits[i]));
        }
    }

    /**
     * The cycle with each transaction by its id ({@code alice/tx2 --rw owners[id=1]--> bob/tx1 …}): what the
     * transactions do is said once, on the lines after it.
     */
    private static String cycle(Analysis.Finding finding, Map<String, TransactionName> named) {
        if (finding.hops().isEmpty()) {
            return String.join(
                    " → ",
                    finding.cycle().stream()
                            .map(node -> TransactionNames.id(node, named))
                            .toList());
        }
        StringBuilder cycle =
                new StringBuilder(TransactionNames.id(finding.hops().get(0).from(), named));
        for (Analysis.Dependency hop : finding.hops()) {
            cycle.append(" --")
                    .append(hop.type().label())
                    .append(' ')
                    .append(hop.item())
                    .append("--> ")
                    .append(TransactionNames.id(hop.to(), named));
        }
        return cycle.toString();
    }

    /**
     * The statements of the finding's cycle, one line each. Position, transaction id, the values that decide the race
     * (before the statement, which the line may cut), the statement with its rows.
     */
    private static void statements(List<String> lines, List<TraceStep> trace, Analysis.Finding finding) {
        DecidingValues deciding = DecidingValues.of(trace, finding.positions()::contains);
        int width = 0;
        for (TraceStep step : trace) {
            if (finding.positions().contains(step.position())) {
                width = Math.max(width, who(step).length());
            }
        }
        int shown = 0;
        for (TraceStep step : trace) {
            if (!finding.positions().contains(step.position())) {
                continue;
            }
            if (shown == MAX_STATEMENTS) {
                lines.add("    … (" + (finding.positions().size() - shown) + " more in result.explanation())");
                return;
            }
            String text = StepDescription.line(step);
            if (step.step().detail() instanceof SqlStep sql) {
                String values = DecidingValues.text(deciding.at(step.position()));
                String outcome = Wording.outcome(sql.outcome());
                text = (values.isEmpty() ? "" : values + " · ")
                        + sql.statementWithRows()
                        + (outcome.isEmpty() ? "" : "   " + outcome);
            }
            lines.add(shorten("    * " + step.position() + "  " + pad(who(step), width) + "  ", text));
            shown++;
        }
    }

    /** The accesses to memory (or to {@code Frontrun.access} resources) that threads conflicted on, one line each. */
    private static void memoryConflicts(List<String> lines, List<TraceStep> trace) {
        List<TraceStep> conflicting = UnsharedSteps.conflicting(trace);
        if (conflicting.isEmpty()) {
            return;
        }
        lines.add("  conflicting accesses:");
        for (int i = 0; i < conflicting.size(); i++) {
            if (i == MAX_STATEMENTS) {
                lines.add("    … (" + (conflicting.size() - i) + " more in result.explanation())");
                return;
            }
            TraceStep step = conflicting.get(i);
            lines.add(
                    shorten("    * " + step.position() + "  " + step.threadName() + "  ", StepDescription.line(step)));
        }
    }

    /** Who ran a statement line's step: its transaction's id ({@code alice/tx2}), or the thread. */
    private static String who(TraceStep step) {
        return step.step().detail() instanceof SqlStep sql && sql.transactionName() != null
                ? sql.transactionName().id()
                : step.threadName();
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }

    /** The exception or the stuck threads, as many lines as the summary has left. */
    private static void details(List<String> lines, Failure failure) {
        String detail = failure.cause()
                .map(Wording::stackTrace)
                .orElse(failure.threadDumps())
                .strip();
        if (detail.isEmpty()) {
            return;
        }
        lines.add(failure.cause().isPresent() ? "  exception:" : "  threads:");
        String[] detailLines = detail.split("\n");
        int room = MAX_LINES - TAIL - lines.size();
        for (int i = 0; i < detailLines.length && i < room; i++) {
            boolean last = i == room - 1 && detailLines.length > room;
            lines.add(
                    last
                            ? "    … (" + (detailLines.length - i) + " more lines in result.explanation())"
                            : "    " + detailLines[i].stripTrailing());
        }
    }

    /** {@code prefix} and {@code text} (whitespace collapsed) on one line of at most {@link #MAX_LINE_CHARS}. */
    private static String shorten(String prefix, String text) {
        String line = prefix + text.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_LINE_CHARS ? line : line.substring(0, MAX_LINE_CHARS - 1) + "…";
    }

    /**
     * Wraps every line longer than {@link #MAX_LINE_CHARS} at spaces onto indented lines (at most {@link #MAX_WRAPPED},
     * the last cut if need be); the replay call stays whole, to be copied.
     */
    private static void wrap(List<String> lines) {
        List<String> wrapped = new ArrayList<>();
        for (String line : lines) {
            if (line.length() <= MAX_LINE_CHARS || line.startsWith("  replay:")) {
                wrapped.add(line);
                continue;
            }
            String indent = " ".repeat(line.length() - line.stripLeading().length() + 4);
            String rest = line;
            for (int n = 1; rest != null; n++) {
                if (rest.length() <= MAX_LINE_CHARS) {
                    wrapped.add(rest);
                    rest = null;
                } else if (n == MAX_WRAPPED) {
                    wrapped.add(rest.substring(0, MAX_LINE_CHARS - 1) + "…");
                    rest = null;
                } else {
                    int cut = rest.lastIndexOf(' ', MAX_LINE_CHARS);
                    cut = cut <= indent.length() + 20 ? MAX_LINE_CHARS : cut;
                    wrapped.add(rest.substring(0, cut).stripTrailing());
                    rest = indent + rest.substring(cut).strip();
                }
            }
        }
        lines.clear();
        lines.addAll(wrapped);
    }

    private static String firstLine(String text) {
        String t = text.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl) + " …";
    }
}

package dev.frontrun.explore;

import dev.frontrun.Anomaly;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * Writes a result for people: the verdict and how much was explored, what failed, the failing
 * interleaving one step per line, how reliably it reproduces, and how to replay it.
 */
final class Explanation {

    private Explanation() {
    }

    static String of(Result.Facts facts, String invariant, List<String> names) {
        StringBuilder sb = new StringBuilder();
        sb.append("Frontrun: ").append(headline(facts)).append('\n');
        sb.append("  explored ").append(facts.executions()).append(facts.executions() == 1 ? " execution" : " executions")
                .append(" of ").append(names.size()).append(" threads ").append(names)
                .append(" with ").append(facts.strategy())
                .append(facts.exhausted() ? " (exhausted: every distinct interleaving ran)" : "")
                .append(" in ").append(facts.elapsed().toMillis()).append(" ms\n");
        if (facts.inconclusiveBecause() != null) {
            sb.append("  inconclusive: ").append(facts.inconclusiveBecause()).append('\n');
        }
        Failure failure = facts.failure();
        if (failure != null) {
            sb.append("  failure: ").append(failure.summary()).append('\n');
            if (failure.kind() == Failure.Kind.INVARIANT_VIOLATED) {
                sb.append("  invariant: ").append(invariant).append('\n');
            }
        }
        Anomaly anomaly = facts.anomaly();
        if (anomaly != null) {
            sb.append("  anomaly: ").append(anomaly.kind()).append(" (").append(anomaly.level().name().toLowerCase())
                    .append(" level)");
            if (!anomaly.description().isEmpty()) {
                sb.append("\n    ").append(anomaly.description().replace("\n", "\n    "));
            }
            sb.append('\n');
        }
        if (!facts.trace().isEmpty()) {
            sb.append("  interleaving (").append(facts.trace().size()).append(" steps):\n");
            for (TraceStep step : facts.trace()) {
                sb.append(String.format("    %3d  %-12s %s%n", step.position(), step.threadName(), step.step().label()));
                if (step.blockedReason() != null) {
                    sb.append("              (blocked: ").append(step.blockedReason()).append(")\n");
                }
            }
        }
        if (facts.reproduceAttempts() > 0) {
            sb.append("  reproduced ").append(facts.reproduced()).append('/').append(facts.reproduceAttempts())
                    .append(" times by replaying the schedule\n");
        }
        if (facts.counterexample() != null && failure != null && failure.disproves()) {
            sb.append("  schedule: ").append(facts.counterexample()).append('\n');
            sb.append("  replay:   .replay(Schedule.parse(\"").append(facts.counterexample()).append("\"))\n");
        }
        if (failure != null && failure.exception() != null) {
            sb.append("  exception:\n").append(indent(stackTrace(failure.exception())));
        }
        if (failure != null && !failure.threadDumps().isEmpty()) {
            sb.append("  threads:\n").append(indent(failure.threadDumps()));
        }
        return sb.toString();
    }

    private static String headline(Result.Facts facts) {
        return switch (facts.verdict()) {
            case HOLDS -> "property HOLDS";
            case FAILS -> "property FAILS";
            case INCONCLUSIVE -> "INCONCLUSIVE (no failure found, but not everything was explored)";
        };
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        String text = out.toString();
        String[] lines = text.split("\n");
        return lines.length <= 25 ? text : String.join("\n", List.of(lines).subList(0, 25)) + "\n\t...\n";
    }

    private static String indent(String text) {
        return "    " + text.strip().replace("\n", "\n    ") + "\n";
    }
}

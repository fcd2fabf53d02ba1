package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One scenario's speed: how fast it explored, where a run's time went (milliseconds per run) and
 * what the same requests cost run plainly, for the demo's table and the benchmark's.
 *
 * @param runs    explored executions plus the replays of a failure
 * @param seconds the exploration's wall time (snapshot, analysis and report included)
 * @param plain   milliseconds of one plain round: the requests once each, one after the other, without Frontrun (no
 *                proxy, no tracking; the restore before it not counted)
 */
record Figures(
        String variant,
        String scenario,
        String verdict,
        int executions,
        int runs,
        double seconds,
        double stepsPerRun,
        double msPerRun,
        double restore,
        double handoffs,
        double analysis,
        double database,
        double application,
        double checks,
        double plain) {

    static Figures of(String variant, RaceScenario scenario, Result result, Exploration.Baseline baseline) {
        Result.Timings t = result.timings();
        return new Figures(
                variant,
                scenario.name(),
                result.failed() ? "RACE" : result.verdict().name(),
                result.executions(),
                t.counts().runs(),
                result.elapsed().toNanos() / 1e9,
                (double) t.counts().steps() / Math.max(1, t.counts().runs()),
                t.msPerRun(),
                t.msPerRun(t.parts().restore()),
                t.msPerRun(t.parts().handoffs()),
                t.msPerRun(t.parts().analysis()),
                t.msPerRun(t.parts().database()),
                t.msPerRun(t.parts().application()),
                t.msPerRun(t.parts().checks()),
                baseline.workMsPerRound());
    }

    double runsPerSecond() {
        return runs / seconds;
    }

    /** Milliseconds of the exploration outside its runs: the snapshot, the schema read, the last restore. */
    double fixedMs() {
        return Math.max(0, seconds * 1000 - runs * msPerRun);
    }

    /** Run time under exploration (its restore included: Frontrun's cost) ÷ the plain requests' time. */
    double ratio() {
        return msPerRun / plain;
    }

    /**
     * Run time under exploration ÷ the floor: the plain requests plus the restore every run needs (the oracle wants
     * every run to start with the rows at the same heap places), as this exploration's runs paid it.
     */
    double floorRatio() {
        return msPerRun / (plain + restore);
    }

    /** Each figure the median over {@code rounds} of one scenario (the first's names and counts). */
    static Figures median(List<Figures> rounds) {
        Figures first = rounds.get(0);
        return new Figures(
                first.variant,
                first.scenario,
                first.verdict,
                first.executions,
                first.runs,
                median(rounds, Figures::seconds),
                median(rounds, Figures::stepsPerRun),
                median(rounds, Figures::msPerRun),
                median(rounds, Figures::restore),
                median(rounds, Figures::handoffs),
                median(rounds, Figures::analysis),
                median(rounds, Figures::database),
                median(rounds, Figures::application),
                median(rounds, Figures::checks),
                median(rounds, Figures::plain));
    }

    private static double median(List<Figures> rounds, ToDoubleFunction<Figures> figure) {
        double[] values = rounds.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    /**
     * {@code overall: <runs/s> runs/s, <ratio>x the plain requests, <floor ratio>x the floor}: all runs over all
     * explorations' time; all run time over the plain time of as many rounds, and over the floor of as many runs (the
     * plain requests plus the runs' restores). The goal is at most 1.25x the floor.
     */
    static String overall(List<Figures> rows) {
        double runs = rows.stream().mapToDouble(Figures::runs).sum();
        double seconds = rows.stream().mapToDouble(Figures::seconds).sum();
        double runMs = rows.stream().mapToDouble(r -> r.runs * r.msPerRun).sum();
        double plainMs = rows.stream().mapToDouble(r -> r.runs * r.plain).sum();
        double floorMs =
                rows.stream().mapToDouble(r -> r.runs * (r.plain + r.restore)).sum();
        return String.format(
                Locale.ROOT,
                "overall: %.0f runs/s, %.1fx the plain requests, %.2fx the floor",
                runs / seconds,
                runMs / plainMs,
                runMs / floorMs);
    }

    /**
     * What the requests alone allow on this machine, for reading the runs/s: as many rounds of the plain requests per
     * second (no restore), weighted as the runs are; no exploration runs faster than its requests do.
     */
    static String plainCeiling(List<Figures> rows) {
        double runs = rows.stream().mapToDouble(Figures::runs).sum();
        double plainMs = rows.stream().mapToDouble(r -> r.runs * r.plain).sum();
        return String.format(
                Locale.ROOT,
                "the plain requests alone, one round after the other: %.0f rounds/s",
                runs * 1000 / plainMs);
    }

    static final String LEGEND = String.join(
            "\n",
            "runs = explored executions + replays of a failure; steps and ms per run, the ms split into: restoring",
            "the database, the scheduler's hand-offs, Frontrun's SQL analysis, statements in the database, the",
            "application's own code, and setup + invariant; plain = the same requests once each, one after the",
            "other, without Frontrun (no proxy, no write tracking; same database, restored before each round, the",
            "restore not counted); ratio = ms/run (restore included) ÷ plain; floor = ms/run ÷ (plain + restore):",
            "the restore is what every run needs for the rows to start at the same heap places, the goal at most",
            "1.25x; fixed = ms of the exploration outside its runs (snapshot, schema read, last restore):",
            "runs/s = runs ÷ (runs × ms/run + fixed).");

    static String header() {
        return String.format(
                Locale.ROOT,
                "  %-12s %-29s %-6s %5s %6s %5s %6s │ %7s %7s %5s %6s %6s %5s │ %6s %5s %5s │ %5s",
                "variant",
                "scenario",
                "verdict",
                "execs",
                "runs/s",
                "steps",
                "ms/run",
                "restore",
                "handoff",
                "sql",
                "db",
                "app",
                "check",
                "plain",
                "ratio",
                "floor",
                "fixed");
    }

    String line() {
        return String.format(
                Locale.ROOT,
                "  %-12s %-29s %-6s %5d %6.0f %5.0f %6.1f │ %7.1f %7.1f %5.1f %6.1f %6.1f %5.1f │ %6.1f %4.1fx %4.2fx │ %5.0f",
                variant,
                scenario,
                verdict,
                executions,
                runsPerSecond(),
                stepsPerRun,
                msPerRun,
                restore,
                handoffs,
                analysis,
                database,
                application,
                checks,
                plain,
                ratio(),
                floorRatio(),
                fixedMs());
    }

    @Override
    public String toString() {
        return line();
    }
}

package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Frontrun's own cost per run apart from the cost of interleaving (BENCHMARKS.md has the command): per scenario, in
 * one process and one sitting, the plain requests, the same requests run one after the other on one explored
 * thread ({@link ScenarioRunner#serially}: proxy, analysis, steps, write tracking and restore, nothing interleaved)
 * and the race exploration itself; {@code rounds} rounds after a warm-up, medians.
 */
public final class InterleavingCostBenchmark {

    private static final int SERIAL_RUNS = 30;

    private InterleavingCostBenchmark() {}

    /** One scenario's medians: the plain requests, the serial runs and the race's runs. */
    private record Row(String variant, String scenario, Figures serial, Figures race) {

        String line() {
            return String.format(
                    Locale.ROOT,
                    "  %-12s %-29s │ %6.1f │ %6.1f %5.1f %5.1f %5.1f %6.1f %4.1fx %5.2f │ %6.1f %5.1f"
                            + " %5.1f %5.1f %6.1f %4.1fx %5.2f",
                    variant,
                    scenario,
                    race.plain(),
                    serial.msPerRun(),
                    serial.restore(),
                    serial.handoffs() + serial.analysis(),
                    serial.checks(),
                    work(serial),
                    serial.ratio(),
                    work(serial) / serial.plain(),
                    race.msPerRun(),
                    race.restore(),
                    race.handoffs() + race.analysis(),
                    race.checks(),
                    work(race),
                    race.ratio(),
                    work(race) / race.plain());
        }

        private static double work(Figures f) {
            return f.database() + f.application();
        }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 && !args[0].isBlank() ? Integer.parseInt(args[0]) : 3;
        List<Row> rows = new ArrayList<>();
        PetClinicRaceDemo.forEachScenario((variant, scenario, runner, fixture) -> {
            runner.baseline(scenario, fixture, 1); // warm-up
            runner.serially(scenario, fixture, SERIAL_RUNS);
            runner.explore(scenario, fixture);
            List<Figures> serial = new ArrayList<>();
            List<Figures> race = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                Exploration.Baseline before = runner.baseline(scenario, fixture, 5);
                Result serialRuns = runner.serially(scenario, fixture, SERIAL_RUNS);
                Result raced = runner.explore(scenario, fixture);
                Exploration.Baseline after = runner.baseline(scenario, fixture, 5);
                Exploration.Baseline plain = ScenarioRunner.both(before, after);
                serial.add(Figures.of(variant.label(), scenario, serialRuns, plain));
                race.add(Figures.of(variant.label(), scenario, raced, plain));
            }
            Row row = new Row(variant.label(), scenario.name(), Figures.median(serial), Figures.median(race));
            rows.add(row);
            System.out.println(row.line());
        });
        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "PetClinic requests: plain, one after the other on one explored thread (%d runs),"
                        + " and raced; median of %d rounds per scenario, ms per run%n",
                SERIAL_RUNS,
                rounds);
        System.out.println(
                "  work = database + application; ratio = ms/run (restore included) ÷ plain; work/plain = the"
                        + " requests' own time under Frontrun ÷ plain");
        System.out.println(String.format(
                Locale.ROOT,
                "  %-12s %-29s │ %6s │ %6s %5s %5s %5s %6s %5s %5s │ %6s %5s %5s %5s" + " %6s %5s %5s",
                "variant",
                "scenario",
                "plain",
                "serial",
                "rest.",
                "h+sql",
                "check",
                "work",
                "ratio",
                "w/pl",
                "raced",
                "rest.",
                "h+sql",
                "check",
                "work",
                "ratio",
                "w/pl"));
        rows.forEach(row -> System.out.println(row.line()));
        System.out.println();
        System.out.println(
                "serial " + Figures.overall(rows.stream().map(Row::serial).toList()));
        System.out.println(
                "raced  " + Figures.overall(rows.stream().map(Row::race).toList()));
        System.exit(0);
    }
}

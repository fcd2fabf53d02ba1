package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import java.util.ArrayList;
import java.util.List;

/**
 * The PetClinic races as a benchmark (BENCHMARKS.md has the command): each scenario of each variant is
 * explored {@code rounds} times after a warm-up exploration, each time between two measurements of the
 * plain requests; prints the median of every figure and the overall line. Times are machine-bound;
 * the ratio to the plain requests, measured in the same process at the same moment, is the figure
 * to compare across machines.
 */
public final class RaceBenchmark {

    private RaceBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 && !args[0].isBlank() ? Integer.parseInt(args[0]) : 5;
        List<Figures> rows = new ArrayList<>();
        PetClinicRaceDemo.forEachScenario((variant, scenario, runner, fixture) -> {
            runner.baseline(scenario, fixture, 1);
            runner.explore(scenario, fixture); // warm-up
            List<Figures> measured = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                Exploration.Baseline before = runner.baseline(scenario, fixture, 5);
                Result result = runner.explore(scenario, fixture);
                Exploration.Baseline after = runner.baseline(scenario, fixture, 5);
                measured.add(Figures.of(variant.label(), scenario, result, ScenarioRunner.both(before, after)));
            }
            Figures median = Figures.median(measured);
            rows.add(median);
            System.out.println(median.line());
        });
        System.out.println();
        System.out.printf("PetClinic races, median of %d rounds per scenario%n", rounds);
        System.out.println(Figures.LEGEND);
        System.out.println(Figures.header());
        rows.forEach(row -> System.out.println(row.line()));
        System.out.println();
        System.out.println(Figures.plainCeiling(rows));
        System.out.println(Figures.overall(rows));
        System.exit(0);
    }
}

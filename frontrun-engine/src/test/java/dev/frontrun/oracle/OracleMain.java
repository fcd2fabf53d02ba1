package dev.frontrun.oracle;

import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The long run of the outcome oracle, outside JUnit's time limits: {@code programs} seeded programs
 * over the given categories, then a table of programs, outcomes, schedules against executions and
 * missing outcomes by category. With {@code --sweep}, each category is also checked on its own
 * (on top of {@link OutcomeOracleTest#CORE}; those of {@code --categories}) and the smallest failing
 * program of each is shrunk and printed. With {@code --twins}, every program's threads 0 and 1 are twins explored by
 * symmetry ({@link OutcomeOracleOnTwinsTest}), and a failing one is shrunk and printed. Usage (see BENCHMARKS.md for
 * the classpath):
 * <pre>java … dev.frontrun.oracle.OracleMain [--programs 2000] [--seed 1] [--categories all|certified|A,B]
 *     [--sweep 60] [--twins] [--counterexamples] [--verbose]</pre>
 */
public final class OracleMain {

    private OracleMain() {}

    public static void main(String[] args) throws Exception {
        int programs = 2000;
        long seed = OutcomeOracleTest.BASE_SEED;
        Set<Category> categories = EnumSet.allOf(Category.class);
        int sweep = 0;
        boolean verbose = false;
        boolean counterexamples = false;
        boolean twins = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--programs" -> programs = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--categories" -> categories = parse(args[++i]);
                case "--sweep" -> sweep = Integer.parseInt(args[++i]);
                case "--verbose" -> verbose = true;
                case "--counterexamples" -> counterexamples = true;
                case "--twins" -> twins = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        TestDatabase db = TestPostgres.freshDatabase(OracleMain.class);
        try (OutcomeOracle oracle = new OutcomeOracle(db)) {
            if (counterexamples) {
                counterexamples(oracle);
            }
            if (programs > 0) {
                run(oracle, categories, programs, seed, twins, verbose);
            }
            if (sweep > 0) {
                sweep(oracle, categories, sweep, seed);
            }
        } finally {
            TestPostgres.drop(db);
        }
        System.exit(0);
    }

    private static Set<Category> parse(String text) {
        if (text.equals("all")) {
            return EnumSet.allOf(Category.class);
        }
        if (text.equals("certified")) {
            return OutcomeOracleTest.certified();
        }
        Set<Category> out = EnumSet.noneOf(Category.class);
        Arrays.stream(text.split(",")).map(String::trim).map(Category::valueOf).forEach(out::add);
        return out;
    }

    private static void run(
            OutcomeOracle oracle, Set<Category> categories, int programs, long seed, boolean twins, boolean verbose)
            throws Exception {
        ProgramGenerator generator = new ProgramGenerator(categories, OutcomeOracleTest.MAX_INTERLEAVINGS);
        Map<Category, int[]> byCategory = new EnumMap<>(Category.class); // programs, failing, missing outcomes
        long schedules = 0;
        long outcomes = 0;
        long executions = 0;
        long missing = 0;
        long unexpected = 0;
        long truthMillis = 0;
        long exploreMillis = 0;
        int failing = 0;
        int undecided = 0;
        int problems = 0;
        long serialStates = 0; // committed states serializable() judged, and those it called not serial
        long notSerial = 0;
        long serialDisagreements = 0;
        long start = System.nanoTime();
        for (int i = 0; i < programs; i++) {
            ProgramCheck check = oracle.check(twins ? generator.generateTwins(seed + i) : generator.generate(seed + i));
            schedules += check.truth().schedules();
            outcomes += check.truth().outcomes().size();
            executions += check.executions();
            missing += check.missing().size();
            unexpected += check.unexpected().size();
            truthMillis += check.truthMillis();
            exploreMillis += check.exploreMillis();
            undecided += check.decided() ? 0 : 1;
            failing += check.passed() || !check.decided() ? 0 : 1;
            problems += check.problems().isEmpty() ? 0 : 1;
            if (check.decided()) {
                int[] judged = check.serialJudged();
                serialStates += judged[0];
                notSerial += judged[1];
                serialDisagreements += check.serialDisagreements().size();
                if (verbose && !check.serialDisagreements().isEmpty()) {
                    System.out.println(String.join("\n", check.serialDisagreements()));
                }
            }
            for (Category c : check.program().categories()) {
                int[] row = byCategory.computeIfAbsent(c, k -> new int[4]);
                row[0]++;
                row[1] += check.decided() ? 0 : 1;
                row[2] += check.passed() || !check.decided() ? 0 : 1;
                row[3] += check.missing().size();
            }
            if (verbose
                    && check.decided()
                    && (!check.passed() || !check.unexpected().isEmpty())) {
                System.out.println(check.report());
            }
            if (twins && check.decided() && !check.missing().isEmpty()) {
                System.out.println("shrunk:\n" + Shrinker.shrink(oracle, check).report());
            }
            if ((i + 1) % 100 == 0) {
                System.out.printf(
                        Locale.ROOT,
                        "… %d programs, %d undecided, %d failing, %.0f s%n",
                        i + 1,
                        undecided,
                        failing,
                        (System.nanoTime() - start) / 1e9);
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%n| programs | undecided | failing | distinct outcomes | brute-force schedules"
                        + " | explored executions | missing outcomes | unexpected outcomes | exploration problems | ground truth s"
                        + " | explorations s |%n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|%n"
                        + "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %.0f | %.0f |%n",
                programs,
                undecided,
                failing,
                outcomes,
                schedules,
                executions,
                missing,
                unexpected,
                problems,
                truthMillis / 1e3,
                exploreMillis / 1e3);
        System.out.printf(
                Locale.ROOT,
                "%n| serializable(): committed states judged | of them not serial | disagreeing with the server |%n"
                        + "|---:|---:|---:|%n| %d | %d | %d |%n",
                serialStates,
                notSerial,
                serialDisagreements);
        System.out.printf(
                Locale.ROOT,
                "%n| category | programs using it | undecided | failing | their missing outcomes |%n"
                        + "|---|---:|---:|---:|---:|%n");
        byCategory.forEach((c, row) ->
                System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d |%n", c, row[0], row[1], row[2], row[3]));
    }

    /** Each category's counterexample of {@link Counterexamples}: whether the exploration still misses an outcome. */
    private static void counterexamples(OutcomeOracle oracle) throws Exception {
        List<String> rows = new ArrayList<>();
        for (Map.Entry<Category, Program> e : Counterexamples.all().entrySet()) {
            ProgramCheck check = oracle.check(e.getValue());
            System.out.println(check.report());
            rows.add(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d |",
                    e.getKey(),
                    check.passed() ? "reached" : check.decided() ? "MISSED" : "undecided",
                    check.missing().size()));
        }
        System.out.println("\n| counterexample of | every outcome | missing |\n|---|---|---:|");
        rows.forEach(System.out::println);
    }

    /** Each category alone on top of the core: which fail, and a shrunk failing program for each. */
    private static void sweep(OutcomeOracle oracle, Set<Category> categories, int programs, long seed)
            throws Exception {
        List<String> rows = new ArrayList<>();
        for (Category category : categories) {
            if (OutcomeOracleTest.CORE.contains(category)) {
                continue;
            }
            Set<Category> set = EnumSet.copyOf(OutcomeOracleTest.CORE);
            set.add(category);
            ProgramGenerator generator = new ProgramGenerator(set, OutcomeOracleTest.MAX_INTERLEAVINGS);
            int failing = 0;
            ProgramCheck smallest = null;
            for (int i = 0; i < programs; i++) {
                Program program = generator.generate(seed + i);
                if (!program.categories().contains(category)) {
                    continue;
                }
                ProgramCheck check = oracle.check(program);
                if (check.decided() && !check.passed()) {
                    failing++;
                    if (smallest == null || program.size() < smallest.program().size()) {
                        smallest = check;
                    }
                }
            }
            rows.add(String.format(
                    Locale.ROOT, "| %s | %s | %d |", category, failing == 0 ? "passes" : "FAILS", failing));
            System.out.printf(Locale.ROOT, "%s: %d failing of %d seeds%n", category, failing, programs);
            if (smallest != null) {
                System.out.println(Shrinker.shrink(oracle, smallest).report());
            }
        }
        System.out.println("\n| category (with the core) | on this engine | failing programs |\n|---|---|---:|");
        rows.forEach(System.out::println);
    }
}

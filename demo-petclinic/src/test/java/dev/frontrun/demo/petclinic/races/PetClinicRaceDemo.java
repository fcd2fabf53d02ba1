package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Analysis;
import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.PetClinicApplication;
import dev.frontrun.demo.petclinic.PetClinicClient;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * The README's main job: races the PetClinic's request flows with Frontrun — the classic app
 * (structured like the Spring sample), the same at SERIALIZABLE, and the fixed one — and prints one
 * table row per scenario (verdict, executions, speed, where a run's time goes, and the same requests
 * run plainly for comparison), one finding per race (the anomaly, and the schedule that replays it),
 * and a last line scripts can read: {@code overall: <runs/s> runs/s, <ratio>x the plain requests}.
 */
public final class PetClinicRaceDemo {

    private static final PrintStream OUT = System.out;
    /** Rounds of the plain requests measured per scenario, after one round of warm-up. */
    private static final int BASELINE_ROUNDS = 5;

    private PetClinicRaceDemo() {
    }

    /** One scenario's figures. */
    private record Row(String variant, RaceScenario scenario, Result result, Exploration.Baseline baseline) {

        int runs() {
            return result.timings().runs();
        }

        double ratio() {
            return result.timings().msPerRun() / baseline.msPerRound();
        }
    }

    public static void main(String[] args) {
        OUT.println("Frontrun PetClinic race demo: each scenario races two real HTTP request flows (MockMvc) against");
        OUT.println("PostgreSQL, exploring every distinct interleaving of their SQL statements.");
        List<Row> rows = new ArrayList<>();
        run("classic", Variant.CLASSIC, rows);
        run("serializable", Variant.SERIALIZABLE, rows);
        run("fixed", Variant.FIXED, rows);
        printTable(rows);
        printFindings(rows);
        printOverall(rows);
        System.exit(0);
    }

    /** Which application the scenarios race. */
    private enum Variant { CLASSIC, SERIALIZABLE, FIXED }

    private static void run(String name, Variant variant, List<Row> rows) {
        TestDatabase db = TestPostgres.freshDatabase(PetClinicRaceDemo.class);
        try (ConfigurableApplicationContext context = start(db, variant)) {
            MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) context).build();
            ScenarioRunner runner = new ScenarioRunner(context.getBean(RaceExplorer.class), new PetClinicClient(mvc),
                    context.getBean(JdbcTemplate.class));
            for (RaceScenario scenario : PetClinicRaces.all()) {
                if (variant == Variant.SERIALIZABLE && scenario.isControl()) {
                    continue;
                }
                RaceScenario.Fixture fixture = runner.fixture();
                runner.baseline(scenario, fixture, 1); // warm-up: the JIT, the pool, Hibernate's caches
                Exploration.Baseline baseline = runner.baseline(scenario, fixture, BASELINE_ROUNDS);
                Result result = runner.explore(scenario, fixture);
                rows.add(new Row(name, scenario, result, baseline));
            }
        } finally {
            TestPostgres.drop(db);
        }
    }

    private static void printTable(List<Row> rows) {
        OUT.println();
        OUT.println("runs = explored executions + replays of a failure; steps and ms per run, the ms split into:");
        OUT.println("restoring the database, the scheduler's hand-offs, Frontrun's SQL analysis, statements in the");
        OUT.println("database, the application's own code, and setup + invariant; plain = the same requests once each,");
        OUT.println("one after the other, without Frontrun (same database, same restore); ratio = ms/run ÷ plain.");
        OUT.printf(Locale.ROOT, "  %-12s %-29s %-6s %5s %6s %5s %6s │ %7s %7s %5s %6s %6s %5s │ %6s %5s%n", "variant",
                "scenario", "verdict", "execs", "runs/s", "steps", "ms/run", "restore", "handoff", "sql", "db", "app",
                "check", "plain", "ratio");
        for (Row row : rows) {
            Result.Timings t = row.result().timings();
            double seconds = row.result().elapsed().toNanos() / 1e9;
            OUT.printf(Locale.ROOT, "  %-12s %-29s %-6s %5d %6.0f %5.0f %6.1f │ %7.1f %7.1f %5.1f %6.1f %6.1f %5.1f │ %6.1f %4.1fx%n",
                    row.variant(), row.scenario().name(), verdict(row.result()), row.result().executions(),
                    row.runs() / seconds, (double) t.steps() / Math.max(1, t.runs()), t.msPerRun(), t.msPerRun(t.restore()),
                    t.msPerRun(t.handoffs()), t.msPerRun(t.analysis()), t.msPerRun(t.database()), t.msPerRun(t.application()), t.msPerRun(t.checks()),
                    row.baseline().msPerRound(), row.ratio());
        }
    }

    private static String verdict(Result result) {
        return result.failed() ? "RACE" : result.verdict().name();
    }

    /** One finding per race: the anomaly in one sentence, then the schedule that replays it. */
    private static void printFindings(List<Row> rows) {
        OUT.println();
        OUT.println("Findings (the whole explanation and a timeline are in each report):");
        for (Row row : rows) {
            Result result = row.result();
            if (result.propertyHolds()) {
                continue;
            }
            OUT.printf("  %s / %s: %s%n", row.variant(), row.scenario().name(), sentence(result));
            result.counterexample().ifPresent(schedule -> OUT.printf(
                    "      replay: .replay(Schedule.parse(\"%s\")), reproduced %d/%d%s%n", schedule, result.reproduced(),
                    result.reproduceAttempts(), result.report().map(r -> "; report " + r.getFileName()).orElse("")));
        }
    }

    /** The anomaly in one sentence, with the threads' names; else what failed. */
    static String sentence(Result result) {
        Analysis analysis = result.analysis();
        if (analysis.finding().isPresent()) {
            Analysis.Finding finding = analysis.finding().get();
            Analysis.Finding shown = analysis.requestFinding().orElse(finding); // threads, not transactions, by name
            return String.format(Locale.ROOT, "%s (Adya %s) at %s level: %s", words(finding.kind().name()),
                    finding.adyaName(), finding.level().name().toLowerCase(Locale.ROOT), shown.cycleText());
        }
        if (result.failed()) {
            return result.failure().map(f -> f.summary()).orElse("fails");
        }
        return result.verdict() + ": " + result.inconclusiveBecause().orElse("");
    }

    private static String words(String constant) {
        return constant.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static void printOverall(List<Row> rows) {
        long runs = 0;
        double seconds = 0;
        double runMs = 0;
        double plainMs = 0;
        for (Row row : rows) {
            runs += row.runs();
            seconds += row.result().elapsed().toNanos() / 1e9;
            runMs += row.result().timings().total().toNanos() / 1e6;
            plainMs += row.runs() * row.baseline().msPerRound();
        }
        OUT.println();
        OUT.printf(Locale.ROOT, "overall: %.0f runs/s, %.1fx the plain requests%n", runs / seconds, runMs / plainMs);
    }

    private static ConfigurableApplicationContext start(TestDatabase db, Variant variant) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(PetClinicApplication.class)
                .properties("spring.datasource.url=" + db.jdbcUrl(), "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(), "frontrun.enabled=true", "server.port=0",
                        "spring.main.banner-mode=off", "logging.level.root=WARN",
                        "logging.level.org.hibernate.orm.jdbc.error=OFF",
                        "logging.level.org.hibernate.engine.jdbc.spi.SqlExceptionHelper=OFF");
        if (variant == Variant.FIXED) {
            app.profiles("fixed");
        }
        if (variant == Variant.SERIALIZABLE) {
            app.properties("spring.datasource.hikari.transaction-isolation=TRANSACTION_SERIALIZABLE");
        }
        return app.run();
    }
}

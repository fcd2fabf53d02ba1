package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Anomaly;
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
 * The README's main job: races the PetClinic's request flows with Frontrun, first in the classic
 * app (structured like the Spring sample), then in the fixed one, and prints for each scenario the
 * verdict, the executions explored, the wall time, the explanation and the report.
 */
public final class PetClinicRaceDemo {

    private static final PrintStream OUT = System.out;

    private PetClinicRaceDemo() {
    }

    public static void main(String[] args) {
        OUT.println("Frontrun PetClinic race demo: each scenario races two real HTTP request flows (MockMvc)");
        OUT.println("against PostgreSQL, exploring every distinct interleaving of their SQL statements.");
        List<String> summary = new ArrayList<>();
        run("classic", "the app as the Spring PetClinic sample structures it", Variant.CLASSIC, summary);
        run("classic at SERIALIZABLE", "the same app with every connection at SERIALIZABLE: races whose write"
                + " transactions do not overlap survive it", Variant.SERIALIZABLE, summary);
        run("fixed", "versions in the forms, a unique pet-name index, one transaction per flow", Variant.FIXED, summary);
        OUT.println();
        OUT.println("Summary (runs = explored executions + replays of a failure; database restore included)");
        OUT.printf("  %-12s %-30s %-14s %6s %8s %10s %10s%n", "variant", "scenario", "verdict", "execs", "wall ms",
                "ms/run", "runs/s");
        summary.forEach(line -> OUT.println("  " + line));
        System.exit(0);
    }

    /** Which application the scenarios race. */
    private enum Variant { CLASSIC, SERIALIZABLE, FIXED }

    private static void run(String name, String what, Variant variant, List<String> summary) {
        OUT.printf("%n══ %s PetClinic: %s%n", name, what);
        TestDatabase db = TestPostgres.freshDatabase(PetClinicRaceDemo.class);
        try (ConfigurableApplicationContext context = start(db, variant)) {
            MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) context).build();
            ScenarioRunner runner = new ScenarioRunner(context.getBean(RaceExplorer.class), new PetClinicClient(mvc),
                    context.getBean(JdbcTemplate.class));
            int n = 0;
            for (RaceScenario scenario : PetClinicRaces.all()) {
                if (variant == Variant.SERIALIZABLE && scenario.isControl()) {
                    continue;
                }
                n++;
                OUT.printf("%n── %d. %s: %s%n", n, scenario.name(), scenario.story());
                OUT.printf("   promise: %s%n", scenario.promise());
                Result result = runner.explore(scenario, runner.fixture());
                String line = verdictLine(result);
                OUT.println("   " + line);
                if (result.failed()) {
                    OUT.println(indent(condensed(result.explanation()), "   │ "));
                }
                summary.add(String.format(Locale.ROOT, "%-12s %-30s %-14s %6d %8d %10.1f %10.0f",
                        variant.name().toLowerCase(Locale.ROOT), scenario.name(),
                        result.verdict(), result.executions(), result.elapsed().toMillis(), msPerRun(result),
                        1000 / msPerRun(result)));
            }
        } finally {
            TestPostgres.drop(db);
        }
    }

    private static String verdictLine(Result result) {
        String verdict = switch (result.verdict()) {
            case FAILS -> "RACE FOUND" + result.anomaly().map(PetClinicRaceDemo::anomaly).orElse("");
            case HOLDS -> "no race: holds in every interleaving";
            case INCONCLUSIVE -> "INCONCLUSIVE: " + result.inconclusiveBecause().orElse("");
            case ERROR -> "ERROR (the test is broken): " + result.inconclusiveBecause().orElse("");
        };
        return String.format(Locale.ROOT, "%s — %d executions, %.1f s%s", verdict, result.executions(),
                result.elapsed().toMillis() / 1000.0,
                result.failed() ? ", reproduced " + result.reproduced() + "/" + result.reproduceAttempts() : "");
    }

    private static double msPerRun(Result result) {
        int runs = result.executions() + (result.failed() ? result.reproduceAttempts() : 0);
        return result.elapsed().toNanos() / 1e6 / Math.max(1, runs);
    }

    private static String anomaly(Anomaly anomaly) {
        return " (" + anomaly.kind() + ", " + anomaly.level().name().toLowerCase(Locale.ROOT) + " level)";
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

    /**
     * The explanation with only the marked steps of the interleaving (those of the anomaly); the
     * whole trace is in the HTML report, whose path the explanation ends with.
     */
    static String condensed(String explanation) {
        StringBuilder out = new StringBuilder();
        boolean inTrace = false;
        int omitted = 0;
        for (String line : explanation.split("\n")) {
            if (line.contains("interleaving (")) {
                inTrace = true;
                out.append(line).append('\n');
                continue;
            }
            if (inTrace && line.matches("^  \\S.*")) { // the next section: "  reproduced …"
                inTrace = false;
                if (omitted > 0) {
                    out.append("       … ").append(omitted).append(" unmarked steps left out: the report has them all\n");
                }
            }
            boolean marked = line.trim().startsWith("*") || line.trim().startsWith("#");
            if (inTrace && !marked) {
                omitted++;
                continue;
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    private static String indent(String text, String prefix) {
        return prefix + text.strip().replace("\n", "\n" + prefix);
    }
}

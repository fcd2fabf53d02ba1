package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Analysis;
import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.PetClinicApplication;
import dev.frontrun.demo.petclinic.PetClinicClient;
import dev.frontrun.demo.petclinic.TestRedis;
import dev.frontrun.demo.reservations.TestReservations;
import dev.frontrun.redis.KeyRef;
import dev.frontrun.redis.RedisStep;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * The README's main job: races the PetClinic's request flows with Frontrun — the classic app
 * (structured like the Spring sample), the same at SERIALIZABLE, and the fixed one; among them a
 * booking whose race goes through another HTTP service beneath JDBC, found with Frontrun's native
 * layer (preloaded by the {@code race-demo} profile on Linux), and online bookings whose daily limit is a
 * counter in Redis (a {@code redis-server} of the demo's own, stopped when it ends) — and prints one
 * table row per scenario (verdict, executions, speed, where a run's time goes, the same requests
 * run plainly for comparison, and the verdict with no invariant: every outcome one a serial order of the
 * requests gives), one finding per race (the anomaly, and the schedule that replays it),
 * and a last line scripts can read: {@code overall: <runs/s> runs/s, <ratio>x the plain requests, <floor ratio>x the
 * floor} (the floor: the plain requests plus the restore every run needs).
 */
public final class PetClinicRaceDemo {

    private static final PrintStream OUT = System.out;
    /** Rounds of the plain requests measured before and after each exploration, after one round of warm-up. */
    private static final int BASELINE_ROUNDS = 5;

    private static final String SERIAL_LEGEND = String.join(
            "\n",
            "serializable = the same requests explored with no invariant: each outcome (the rows written, each",
            "request's status) must be one a serial order of them gives; a 409 is sent again, as a user reloading",
            "the form would; the verdict and the executions explored (the serial orders not counted).");

    private PetClinicRaceDemo() {}

    /**
     * One scenario's figures, and the verdict of the same requests explored with no invariant ({@code serial}: every
     * outcome must be one a serial order of them gives).
     */
    private record Row(
            String variant, RaceScenario scenario, Result result, Exploration.Baseline baseline, Result serial) {

        Figures figures() {
            return Figures.of(variant, scenario, result, baseline);
        }

        String line() {
            return figures().line() + " │ " + serialColumn(serial);
        }
    }

    /** The no-invariant exploration's verdict and executions: {@code RACE 2}, {@code HOLDS 18}. */
    static String serialColumn(Result serial) {
        return String.format(
                Locale.ROOT,
                "%-6s %5d",
                serial.failed() ? "RACE" : serial.verdict().name(),
                serial.executions());
    }

    /** Exits 0 when every exploration ran (whatever it found), 1 when the demo itself failed; the Redis stops either way. */
    public static void main(String[] args) {
        try {
            race();
        } catch (Throwable failure) {
            failure.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void race() {
        OUT.println("Frontrun PetClinic race demo: each scenario races two real HTTP request flows (MockMvc) against");
        OUT.println("PostgreSQL and Redis, exploring every distinct interleaving of their SQL statements, their Redis");
        OUT.println("commands and their requests to other services (seen beneath the JDK by Frontrun's native layer).");
        List<Row> rows = new ArrayList<>();
        for (Variant variant : Variant.values()) {
            run(variant, rows);
        }
        printTable(rows);
        printFindings(rows);
        printOverall(rows);
    }

    /** Which application the scenarios race. */
    enum Variant {
        CLASSIC,
        SERIALIZABLE,
        FIXED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The scenarios raced in {@code variant}: the controls are left out at SERIALIZABLE; the booking of
     * a day's last slot, whose race goes through the reservation service beneath JDBC, and the online
     * bookings' daily limit, a counter in the application's {@code redis} that no isolation level of the
     * database reaches, are raced in all.
     */
    static List<RaceScenario> scenarios(Variant variant, StringRedisTemplate redis) {
        return Stream.concat(
                        PetClinicRaces.all().stream(),
                        Stream.of(PetClinicRaces.slotBooking(), PetClinicRaces.onlineDailyLimit(redis)))
                .filter(s -> variant != Variant.SERIALIZABLE || !s.isControl())
                .toList();
    }

    /** What a benchmark does with one scenario: its variant's runner and a fresh fixture to race on. */
    @FunctionalInterface
    interface ScenarioWork {
        void run(Variant variant, RaceScenario scenario, ScenarioRunner runner, RaceScenario.Fixture fixture);
    }

    /** Runs {@code work} on every scenario of every variant, each variant's application started once. */
    static void forEachScenario(ScenarioWork work) {
        for (Variant variant : Variant.values()) {
            withApp(variant, (runner, scenarios) -> {
                for (RaceScenario scenario : scenarios) {
                    work.run(variant, scenario, runner, runner.fixture());
                }
            });
        }
    }

    /** Starts {@code variant} on a fresh database, hands its scenario runner and scenarios to {@code work}, and stops it. */
    static void withApp(Variant variant, BiConsumer<ScenarioRunner, List<RaceScenario>> work) {
        TestDatabase db = TestPostgres.freshDatabase(PetClinicRaceDemo.class);
        try (ConfigurableApplicationContext context = start(db, variant)) {
            MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) context)
                    .build();
            work.accept(
                    new ScenarioRunner(
                            context.getBean(RaceExplorer.class),
                            new PetClinicClient(mvc),
                            context.getBean(JdbcTemplate.class)),
                    scenarios(variant, context.getBean(StringRedisTemplate.class)));
        } finally {
            TestPostgres.drop(db);
        }
    }

    private static void run(Variant variant, List<Row> rows) {
        withApp(variant, (runner, scenarios) -> {
            for (RaceScenario scenario : scenarios) {
                RaceScenario.Fixture fixture = runner.fixture();
                runner.baseline(scenario, fixture, 1); // warm-up: the JIT, the pool, Hibernate's caches
                Exploration.Baseline before = runner.baseline(scenario, fixture, BASELINE_ROUNDS);
                Result result = runner.explore(scenario, fixture);
                Exploration.Baseline after = runner.baseline(scenario, fixture, BASELINE_ROUNDS);
                Result serial = runner.exploreAgainstSerialOrders(scenario, fixture);
                rows.add(new Row(variant.label(), scenario, result, ScenarioRunner.both(before, after), serial));
            }
        });
    }

    private static void printTable(List<Row> rows) {
        OUT.println();
        OUT.println(Figures.LEGEND);
        OUT.println(SERIAL_LEGEND);
        OUT.println(Figures.header() + " │ " + String.format(Locale.ROOT, "%-12s", "serializable"));
        rows.forEach(row -> OUT.println(row.line()));
    }

    /**
     * One finding per race: the anomaly in one sentence, then the schedule that replays it; and once,
     * what the explorations could not explore (without Frontrun's native layer preloaded: the requests of the
     * scenarios whose threads talked to another service), and in how many of them.
     */
    private static void printFindings(List<Row> rows) {
        OUT.println();
        OUT.println("Findings (the whole explanation and a timeline are in each report):");
        Map<String, Long> notes = rows.stream()
                .flatMap(row -> row.result().notExplored().stream()
                        .map(note -> note.lines().findFirst().orElse(""))
                        .distinct())
                .collect(Collectors.groupingBy(note -> note, LinkedHashMap::new, Collectors.counting()));
        notes.forEach(
                (note, count) -> OUT.printf("  NOT EXPLORED in %d of %d explorations: %s%n", count, rows.size(), note));
        for (Row row : rows) {
            Result result = row.result();
            if (result.propertyHolds()) {
                continue;
            }
            OUT.printf("  %s / %s: %s%n", row.variant(), row.scenario().name(), sentence(result));
            result.counterexample()
                    .ifPresent(schedule -> OUT.printf(
                            "      replay: .replay(Schedule.parse(\"%s\")), reproduced %d/%d%s%n",
                            schedule,
                            result.reproduced(),
                            result.reproduceAttempts(),
                            result.report()
                                    .map(r -> "; report " + r.getFileName())
                                    .orElse("")));
        }
    }

    /** The anomaly in one sentence (the finding the checked advice leaves standing), and what the advice's check showed. */
    static String sentence(Result result) {
        Optional<Analysis.Finding> lead = result.leadingFinding();
        if (lead.isPresent()) {
            Analysis.Finding finding = lead.get();
            return String.format(
                    Locale.ROOT,
                    "%s (Adya %s) at %s level: %s%s%s",
                    words(finding.kind().name()),
                    finding.adyaName(),
                    finding.level().name().toLowerCase(Locale.ROOT),
                    finding.cycleText(),
                    result.checkedAdvice().map(PetClinicRaceDemo::checked).orElse(""),
                    racedEndpoints(result) + racedKeys(result));
        }
        if (result.failed()) {
            return result.failure().map(f -> f.summary()).orElse("fails") + racedEndpoints(result) + racedKeys(result);
        }
        return result.verdict() + ": " + result.inconclusiveBecause().orElse("");
    }

    /**
     * The endpoints of other services that two threads' requests raced through in the failing trace
     * (steps on {@code socket:<host>:<port>} resources, seen by the native layer), with the requests in
     * trace order: {@code ; the requests to socket:127.0.0.1:41234 interleave: book-a GET, book-b GET, ...}.
     */
    private static String racedEndpoints(Result result) {
        Map<String, List<String>> requests = new LinkedHashMap<>();
        Map<String, Set<Integer>> threads = new HashMap<>();
        for (dev.frontrun.TraceStep step : result.trace()) {
            if (step.step().detail() instanceof dev.frontrun.nativeio.SocketRequest request) {
                requests.computeIfAbsent(request.endpoint(), e -> new ArrayList<>())
                        .add(step.threadName() + " " + request.head().split(" ")[0]);
                threads.computeIfAbsent(request.endpoint(), e -> new HashSet<>())
                        .add(step.thread());
            }
        }
        StringBuilder raced = new StringBuilder();
        requests.forEach((endpoint, calls) -> {
            if (threads.get(endpoint).size() > 1) {
                raced.append("; the requests to ")
                        .append(endpoint)
                        .append(" interleave: ")
                        .append(String.join(", ", calls));
            }
        });
        return raced.toString();
    }

    /**
     * The Redis keys two threads' commands raced on in the failing trace (the typed facts of its Redis steps), with
     * the commands in trace order: {@code ; the commands on redis:0:visits:online:owner:11:2026-11-29 interleave:
     * online-a GET, online-b GET, ...}.
     */
    static String racedKeys(Result result) {
        Map<String, List<String>> commands = new LinkedHashMap<>();
        Map<String, Set<Integer>> threads = new HashMap<>();
        for (dev.frontrun.TraceStep step : result.trace()) {
            if (step.step().detail() instanceof RedisStep redis) {
                String names = String.join(
                        "+", redis.commands().stream().map(c -> c.name()).toList());
                for (KeyRef key : redis.keys()) {
                    commands.computeIfAbsent(key.resource(), k -> new ArrayList<>())
                            .add(step.threadName() + " " + names);
                    threads.computeIfAbsent(key.resource(), k -> new HashSet<>())
                            .add(step.thread());
                }
            }
        }
        StringBuilder raced = new StringBuilder();
        commands.forEach((key, sent) -> {
            if (threads.get(key).size() > 1) {
                raced.append("; the commands on ")
                        .append(key)
                        .append(" interleave: ")
                        .append(String.join(", ", sent));
            }
        });
        return raced.toString();
    }

    /** The checked advice in a few words: {@code ; at REPEATABLE READ: still found}. */
    private static String checked(Result.CheckedAdvice advice) {
        return "; at " + advice.level().sql() + ": "
                + switch (advice.effect()) {
                    case FIXES -> "holds";
                    case FIXES_WITH_RETRY -> "holds once the loser's 40001 is retried";
                    case NOT_FIXED -> "still found";
                    case NOT_CHECKED -> "not checked";
                };
    }

    private static String words(String constant) {
        return constant.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static void printOverall(List<Row> rows) {
        OUT.println();
        OUT.println(Figures.plainCeiling(rows.stream().map(Row::figures).toList()));
        OUT.println(Figures.overall(rows.stream().map(Row::figures).toList()));
    }

    private static ConfigurableApplicationContext start(TestDatabase db, Variant variant) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(PetClinicApplication.class)
                .properties(
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "frontrun.enabled=true",
                        "server.port=0",
                        "spring.main.banner-mode=off",
                        "logging.level.root=WARN",
                        "petclinic.reservations.url="
                                + TestReservations.service().url(),
                        "logging.level.org.hibernate.orm.jdbc.error=OFF",
                        "logging.level.org.hibernate.engine.jdbc.spi.SqlExceptionHelper=OFF");
        app.properties(TestRedis.server().properties());
        if (variant == Variant.FIXED) {
            app.profiles("fixed");
        }
        if (variant == Variant.SERIALIZABLE) {
            app.properties("spring.datasource.hikari.transaction-isolation=TRANSACTION_SERIALIZABLE");
        }
        return app.run();
    }
}

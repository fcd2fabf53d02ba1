package dev.frontrun.demo.petclinic.races;

import dev.frontrun.demo.petclinic.PetClinicApplication;
import dev.frontrun.demo.petclinic.PetClinicClient;
import dev.frontrun.demo.reservations.TestReservations;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * Whether the demo's "plain" figure ({@code Exploration.baseline}) is what the requests cost without Frontrun: the
 * same requests, from the same data, timed three ways in one process, in alternating blocks of 5 rounds — in a
 * context of the application without Frontrun ({@code frontrun.enabled=false}), in one with it (its proxy and hooks
 * in place, no exploration running) and by {@code Exploration.baseline} in the latter. Prints the median block per
 * scenario (ms per round). BENCHMARKS.md has the command and results.
 */
public final class PlainBaselineCheck {

    private PlainBaselineCheck() {}

    public static void main(String[] args) throws Exception {
        int blocks = args.length > 0 && !args[0].isBlank() ? Integer.parseInt(args[0]) : 7;
        TestDatabase db = TestPostgres.freshDatabase(PlainBaselineCheck.class);
        try (ConfigurableApplicationContext withFrontrun = start(db, true);
                ConfigurableApplicationContext without = start(db, false)) {
            PetClinicClient frontrunClient = client(withFrontrun);
            PetClinicClient plainClient = client(without);
            JdbcTemplate jdbc = without.getBean(JdbcTemplate.class);
            ScenarioRunner runner = new ScenarioRunner(
                    withFrontrun.getBean(RaceExplorer.class), frontrunClient, withFrontrun.getBean(JdbcTemplate.class));
            System.out.printf(
                    Locale.ROOT,
                    "| scenario | without Frontrun | Frontrun's context, no exploration"
                            + " | Exploration.baseline |%n|---|---:|---:|---:|%n");
            for (RaceScenario scenario : PetClinicRaces.all()) {
                RaceScenario.Fixture fixture = runner.fixture();
                DataReset reset = DataReset.of(jdbc);
                double[] plain = new double[blocks];
                double[] passive = new double[blocks];
                double[] baseline = new double[blocks];
                for (int block = -1; block < blocks; block++) { // block -1: warm-up
                    double p = requests(scenario, fixture, plainClient, reset);
                    double f = requests(scenario, fixture, frontrunClient, reset);
                    reset.run();
                    double b = runner.baseline(scenario, fixture, 5).workMsPerRound();
                    if (block >= 0) {
                        plain[block] = p;
                        passive[block] = f;
                        baseline[block] = b;
                    }
                }
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %.2f | %.2f | %.2f |%n",
                        scenario.name(),
                        median(plain),
                        median(passive),
                        median(baseline));
                reset.drop();
            }
        } finally {
            TestPostgres.drop(db);
        }
        System.exit(0);
    }

    /** Mean ms of 5 rounds of the scenario's requests, one after the other, each round from the same data. */
    private static double requests(
            RaceScenario scenario, RaceScenario.Fixture fixture, PetClinicClient client, DataReset reset)
            throws Exception {
        long nanos = 0;
        for (int round = 0; round < 5; round++) {
            reset.run();
            long begin = System.nanoTime();
            for (RaceScenario.NamedRequest request : scenario.requests()) {
                request.request().perform(client, fixture);
            }
            nanos += System.nanoTime() - begin;
        }
        return nanos / 5 / 1e6;
    }

    /** The public tables and sequences as found, put back by TRUNCATE and a refill (no trigger on any write). */
    private record DataReset(JdbcTemplate jdbc, List<String> tables, Map<String, Long> sequences) {

        static DataReset of(JdbcTemplate jdbc) {
            List<String> tables = jdbc.queryForList(
                    "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables"
                            + " WHERE schemaname = 'public' AND tablename NOT LIKE 'kept\\_%'",
                    String.class);
            Map<String, Long> sequences = new LinkedHashMap<>();
            jdbc.queryForList(
                            "SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences WHERE schemaname = 'public'",
                            String.class)
                    .forEach(s -> sequences.put(s, jdbc.queryForObject("SELECT last_value FROM " + s, Long.class)));
            for (String table : tables) {
                jdbc.execute("CREATE TABLE " + kept(table) + " AS SELECT * FROM " + table);
            }
            return new DataReset(jdbc, tables, sequences);
        }

        private static String kept(String table) {
            return "public.kept_" + table.substring(table.indexOf('.') + 1);
        }

        void run() {
            StringBuilder sql = new StringBuilder("BEGIN; SET LOCAL session_replication_role = replica; TRUNCATE ")
                    .append(String.join(", ", tables));
            tables.forEach(t -> sql.append("; INSERT INTO ")
                    .append(t)
                    .append(" SELECT * FROM ")
                    .append(kept(t)));
            sequences.forEach((s, v) -> sql.append("; SELECT setval('")
                    .append(s)
                    .append("', ")
                    .append(v)
                    .append(")"));
            jdbc.execute(sql.append("; COMMIT").toString());
        }

        void drop() {
            tables.forEach(t -> jdbc.execute("DROP TABLE " + kept(t)));
        }
    }

    private static PetClinicClient client(ConfigurableApplicationContext context) {
        return new PetClinicClient(MockMvcBuilders.webAppContextSetup((WebApplicationContext) context)
                .build());
    }

    private static ConfigurableApplicationContext start(TestDatabase db, boolean frontrun) {
        return new SpringApplicationBuilder(PetClinicApplication.class)
                .properties(
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "frontrun.enabled=" + frontrun,
                        "server.port=0",
                        "spring.main.banner-mode=off",
                        "logging.level.root=WARN",
                        "petclinic.reservations.url="
                                + TestReservations.service().url())
                .run();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}

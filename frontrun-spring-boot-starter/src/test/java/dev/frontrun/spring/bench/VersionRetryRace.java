package dev.frontrun.spring.bench;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.app.RaceApp;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.Locale;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * An optimistic-locking race as a measurement, not a test (it runs for minutes): two and then
 * three requests increment one {@code @Version} counter, each retrying a stale write up to three
 * times; prints each exploration's verdict, executions, steps and where the time went.
 * BENCHMARKS.md has the command and the figures.
 */
public final class VersionRetryRace {

    private VersionRetryRace() {}

    public static void main(String[] args) {
        int maxThreads = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        TestDatabase db = TestPostgres.freshDatabase(VersionRetryRace.class);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RaceApp.class)
                .properties(
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "frontrun.enabled=true",
                        "spring.main.banner-mode=off",
                        "logging.level.root=WARN")
                .run()) {
            MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) context)
                    .build();
            RaceExplorer races = context.getBean(RaceExplorer.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            for (int threads = 2; threads <= maxThreads; threads++) {
                int n = threads;
                Exploration<Object> exploration = races.explore().maxExecutions(100_000);
                for (int i = 1; i <= n; i++) {
                    exploration.thread(
                            "request-" + i,
                            () -> mvc.perform(post("/versioned-counters/1/increment"))
                                    .andReturn());
                }
                Result result = exploration
                        .invariant(
                                () -> jdbc.queryForObject(
                                                "SELECT n FROM versioned_counters WHERE id = 1", Integer.class)
                                        == n,
                                "all increments kept")
                        .run();
                Result.Timings t = result.timings();
                System.out.printf(
                        Locale.ROOT,
                        "%d threads: %s, %d executions, %.1f s, %.1f steps/run, %.1f ms/run"
                                + " (restore %.1f, hand-offs %.1f, sql %.1f, db %.1f, app %.1f, checks %.1f; lock waits %.1f),"
                                + " %.1f probes/run%n%s%n",
                        n,
                        result.verdict(),
                        result.executions(),
                        result.elapsed().toMillis() / 1000.0,
                        (double) t.counts().steps() / t.counts().runs(),
                        t.msPerRun(),
                        t.msPerRun(t.parts().restore()),
                        t.msPerRun(t.parts().handoffs()),
                        t.msPerRun(t.parts().analysis()),
                        t.msPerRun(t.parts().database()),
                        t.msPerRun(t.parts().application()),
                        t.msPerRun(t.parts().checks()),
                        t.msPerRun(t.lockWaits()),
                        (double) t.counts().probes() / t.counts().runs(),
                        result.inconclusiveBecause()
                                .map(why -> "  inconclusive: " + why)
                                .orElse(""));
            }
        } finally {
            TestPostgres.drop(db);
        }
        System.exit(0);
    }
}

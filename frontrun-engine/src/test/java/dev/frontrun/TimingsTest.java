package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.internal.postgres.DatabaseSnapshot;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Result#timings()} and {@link Exploration#baseline(int)} count what they claim to: runs, steps and
 * the parts of the runs' time (no speed is asserted: figures go to BENCHMARKS.md).
 */
@ExtendWith(PostgresExtension.class)
class TimingsTest {

    private static Duration parts(Result.Timings t) {
        return t.parts()
                .restore()
                .plus(t.parts().checks())
                .plus(t.parts().handoffs())
                .plus(t.parts().analysis())
                .plus(t.parts().database())
                .plus(t.parts().application());
    }

    @Test
    void aPlainJavaExplorationCountsItsRunsAndStepsAndSpendsNothingInADatabase() {
        Result result = Frontrun.explore(Object::new)
                .thread("a", s -> Frontrun.access("x", Access.WRITE))
                .thread("b", s -> Frontrun.access("x", Access.WRITE))
                .run();

        Result.Timings t = result.timings();
        assertThat(result.executions()).isEqualTo(2);
        assertThat(t.counts().runs()).isEqualTo(2);
        assertThat(t.counts().steps()).as("one access per thread per run").isEqualTo(4);
        assertThat(t.counts().probes()).isZero();
        assertThat(t.parts().database()).isZero();
        assertThat(t.parts().analysis()).isZero();
        assertThat(parts(t)).as("the parts add up to the runs' time").isEqualTo(t.total());
    }

    @Test
    void aThreadThatTheChoiceLetsGoOnTakesItsStepsWithoutAHandOff() {
        Result result = Frontrun.explore(Object::new)
                .thread("a", s -> accessOwn("a"))
                .thread("b", s -> accessOwn("b"))
                .run();

        Result.Timings t = result.timings();
        assertThat(result.executions()).as("nothing shared: one trace").isEqualTo(1);
        assertThat(t.counts().steps()).isEqualTo(20);
        assertThat(t.counts().continued())
                .as("each thread's first step is granted by the scheduler; the rest its own choice")
                .isPositive()
                .isLessThanOrEqualTo(18);
        assertThat(parts(t)).isEqualTo(t.total());
    }

    private static void accessOwn(String thread) {
        for (int i = 0; i < 10; i++) {
            Frontrun.access(thread + i, Access.WRITE);
        }
    }

    @Test
    void aFailureCountsItsReplaysAsRuns() {
        Result result = Frontrun.explore(() -> new int[1])
                .thread("a", TimingsTest::incrementRacily)
                .thread("b", TimingsTest::incrementRacily)
                .invariant(v -> v[0] == 2)
                .reproduceOnFailure(3)
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.timings().counts().runs()).isEqualTo(result.executions() + 3);
    }

    private static void incrementRacily(int[] v) {
        Frontrun.access("v", Access.READ);
        int read = v[0];
        Frontrun.access("v", Access.WRITE);
        v[0] = read + 1;
    }

    @Test
    void statementsAreTimedAsDatabaseAndAnalysisAndTheRestoreAsRestore(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)");
        DataSource ds = FrontrunDataSource.wrap(db.dataSource());
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("a", s -> increment(ds))
                .thread("b", s -> increment(ds))
                .run();

        Result.Timings t = result.timings();
        assertThat(t.counts().runs()).isEqualTo(result.executions());
        assertThat(t.counts().steps())
                .as("one autocommit UPDATE per thread per run")
                .isEqualTo(2 * t.counts().runs());
        assertThat(t.parts().database()).isPositive();
        assertThat(t.parts().analysis()).isPositive();
        assertThat(t.parts().restore()).isPositive();
        assertThat(parts(t)).isEqualTo(t.total());
    }

    @Test
    void theBaselineRunsEveryThreadOnceARoundWithFrontrunOutOfTheWayAfterTheRestore(TestDatabase db)
            throws SQLException {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)");
        DataSource ds = FrontrunDataSource.wrap(db.dataSource());
        AtomicInteger bodies = new AtomicInteger();
        List<Thread> ranOn = new ArrayList<>();
        List<Integer> seen = new ArrayList<>();
        List<Boolean> proxied = new ArrayList<>();
        List<Integer> triggers = new ArrayList<>();
        Exploration<Object> exploration = Frontrun.explore(Object::new).database(db.dataSource());
        for (String name : List.of("a", "b")) {
            exploration.thread(name, s -> {
                bodies.incrementAndGet();
                ranOn.add(Thread.currentThread());
                try (Connection c = ds.getConnection()) {
                    proxied.add(Proxy.isProxyClass(c.getClass()));
                    triggers.add(trackingTriggers(c));
                }
                seen.add(read(ds));
                increment(ds);
            });
        }

        Exploration.Baseline baseline = exploration.baseline(3);

        assertThat(baseline.rounds()).isEqualTo(3);
        assertThat(bodies).hasValue(6);
        assertThat(ranOn)
                .as("not the calling thread: one Frontrun stays out of the way of")
                .allMatch(t -> t instanceof SchedulingPoints.Bystander)
                .doesNotContain(Thread.currentThread());
        assertThat(proxied).as("the real connections, not Frontrun's proxies").containsOnly(false);
        assertThat(triggers).as("no trigger tracks the writes").containsOnly(0);
        assertThat(seen)
                .as("one after the other, from the same restored state each round")
                .containsExactly(0, 1, 0, 1, 0, 1);
        assertThat(read(ds)).as("the database is as before").isZero();
        assertThat(baseline.restore()).isPositive().isLessThanOrEqualTo(baseline.total());
        assertThat(baseline.workMsPerRound()).isPositive().isLessThan(baseline.msPerRound());
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(trackingTriggers(c))
                    .as("nothing of the snapshot left behind")
                    .isZero();
        }
    }

    @Test
    void anExplorationTracksTheWritesThatTheBaselineDoesNot(TestDatabase db) throws SQLException {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)");
        DataSource ds = FrontrunDataSource.wrap(db.dataSource());
        List<Integer> triggers = new ArrayList<>();
        Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("a", s -> {
                    try (Connection c = ds.getConnection()) {
                        triggers.add(trackingTriggers(c));
                    }
                    increment(ds);
                })
                .thread("b", s -> increment(ds))
                .run();

        assertThat(triggers)
                .as("the contrast: explored runs restore only what a trigger saw change")
                .isNotEmpty()
                .allMatch(n -> n > 0);
    }

    private static int trackingTriggers(Connection c) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT count(*) FROM pg_trigger WHERE tgname = ?")) {
            select.setString(1, DatabaseSnapshot.TRACKING_TRIGGER);
            try (var rs = select.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static void increment(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE counter SET n = n + 1 WHERE id = 1")) {
            update.executeUpdate();
        }
    }

    private static int read(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement select = c.prepareStatement("SELECT n FROM counter WHERE id = 1");
                var rs = select.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}

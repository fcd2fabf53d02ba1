package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.internal.shard.ShardMerge;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Exploration#shard(int, int)} end to end: each shard's verdict, its report file, and the merge of all of
 * them ({@link ShardMerge}) — FAILS with a counterexample that replays, HOLDS with the unsharded run's trace count,
 * refused when a shard is missing; on plain Java and on a real PostgreSQL.
 */
@ExtendWith(PostgresExtension.class)
class ShardedExplorationTest {

    @TempDir
    Path reports;

    /** Three threads incrementing one counter without a lock: lost updates in some interleavings. */
    private static Exploration<int[]> threeIncrements() {
        return Frontrun.explore(() -> new int[1])
                .thread("a", ShardedExplorationTest::increment)
                .thread("b", ShardedExplorationTest::increment)
                .thread("c", ShardedExplorationTest::increment)
                .invariant(v -> v[0] == 3, "counter == 3")
                .progress(null, Duration.ofMinutes(1));
    }

    private static void increment(int[] v) {
        Frontrun.access("v", Access.READ);
        int read = v[0];
        Frontrun.access("v", Access.WRITE);
        v[0] = read + 1;
    }

    /** Three threads touching two variables, one shared: many traces, no failure. */
    private static Exploration<int[]> holding() {
        return Frontrun.explore(() -> new int[2])
                .thread("a", v -> {
                    Frontrun.access("x", Access.WRITE);
                    Frontrun.access("y", Access.READ);
                })
                .thread("b", v -> {
                    Frontrun.access("y", Access.WRITE);
                    Frontrun.access("x", Access.READ);
                })
                .thread("c", v -> {
                    Frontrun.access("x", Access.READ);
                    Frontrun.access("y", Access.WRITE);
                })
                .progress(null, Duration.ofMinutes(1));
    }

    @Test
    void aFailingExplorationFailsInTheShardsThatReachTheFailureAndTheMergeFailsWithTheLowestOnesCounterexample()
            throws IOException {
        Result whole = threeIncrements()
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .run();
        Result[] shares = new Result[3];
        for (int i = 0; i < 3; i++) {
            shares[i] = threeIncrements()
                    .shard(i, 3)
                    .name("increments")
                    .shardDirectory(reports)
                    .run();
            String share = "shard " + i + "/3";
            assertThat(shares[i].notExplored()).anyMatch(note -> note.contains(share));
        }
        int lowestFailing = -1;
        for (int i = 2; i >= 0; i--) {
            lowestFailing = shares[i].verdict() == Verdict.FAILS ? i : lowestFailing;
        }
        assertThat(whole.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(lowestFailing).as("some shard finds the lost update").isNotNegative();

        ShardMerge.Merged merged = single(ShardMerge.merge(reports));
        assertThat(merged.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(merged.failingShard()).isEqualTo(lowestFailing);
        String counterexample =
                shares[lowestFailing].counterexample().orElseThrow().toString();
        assertThat(merged.counterexample()).isEqualTo(counterexample);
        assertThat(merged.render())
                .contains(
                        "increments: FAILS",
                        "shard " + lowestFailing + "/3",
                        "the invariant does not hold",
                        "Schedule.parse(\"" + counterexample + "\")");
        assertThat(threeIncrements()
                        .replay(Schedule.parse(merged.counterexample()))
                        .verdict())
                .as("the merged counterexample replays in an unsharded exploration")
                .isEqualTo(Verdict.FAILS);
    }

    @Test
    void exploredToTheEndTheShardsOfAFailingExplorationCountItsTracesOnce() throws IOException {
        Result whole = threeIncrements()
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .run();
        for (int n : new int[] {2, 3, 5}) {
            Path directory = Files.createDirectories(reports.resolve("n" + n));
            int executions = 0;
            int failing = 0;
            for (int i = 0; i < n; i++) {
                Result share = threeIncrements()
                        .shard(i, n)
                        .name("increments")
                        .shardDirectory(directory)
                        .stopOnFirstFailure(false)
                        .reproduceOnFailure(0)
                        .run();
                executions += share.executions();
                failing += share.failingExecutions();
            }
            ShardMerge.Merged merged = single(ShardMerge.merge(directory));
            assertThat(executions).as("%d shards", n).isEqualTo(whole.executions());
            assertThat(failing).isEqualTo(whole.failingExecutions());
            assertThat(merged.distinctTraces()).isEqualTo(whole.executions());
            assertThat(merged.verdict()).isEqualTo(Verdict.FAILS);
        }
    }

    @Test
    void aHoldingExplorationHoldsInEveryShardAndMergedWithTheUnshardedTraceCount() throws IOException {
        Result whole = holding().run();
        assertThat(whole.verdict()).isEqualTo(Verdict.HOLDS);
        for (int n : new int[] {2, 3, 5}) {
            Path directory = Files.createDirectories(reports.resolve("n" + n));
            for (int i = 0; i < n; i++) {
                assertThat(holding()
                                .shard(i, n)
                                .name("holding")
                                .shardDirectory(directory)
                                .run()
                                .verdict())
                        .isEqualTo(Verdict.HOLDS);
            }
            ShardMerge.Merged merged = single(ShardMerge.merge(directory));
            assertThat(merged.verdict()).as("%d shards", n).isEqualTo(Verdict.HOLDS);
            assertThat(merged.missing()).isEmpty();
            assertThat(merged.executions()).isEqualTo(whole.executions());
            assertThat(merged.distinctTraces()).isEqualTo(whole.executions());
        }
    }

    @Test
    void theMergeRefusesAHoldingVerdictWhenAShardDidNotReport() throws IOException {
        for (int i = 0; i < 3; i++) {
            holding().shard(i, 3).name("holding").shardDirectory(reports).run();
        }
        Files.delete(reports.resolve("holding.shard-1-of-3.json"));

        ShardMerge.Merged merged = single(ShardMerge.merge(reports));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Frontrun.mergeShards(reports, new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(merged.verdict()).isNull();
        assertThat(merged.holds()).isFalse();
        assertThat(merged.missing()).containsExactly(1);
        assertThat(exit).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("holding: MISSING", "no report from shard [1] of 3", "the whole verdict needs every shard");
    }

    @Test
    void shardsRunWithDifferentCountsAreAnErrorAndAnEmptyDirectoryIsNoVerdict() throws IOException {
        holding().shard(0, 2).name("holding").shardDirectory(reports).run();
        holding().shard(1, 3).name("holding").shardDirectory(reports).run();

        ShardMerge.Merged merged = single(ShardMerge.merge(reports));
        assertThat(merged.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(merged.render()).contains("disagree on the number of shards");

        Path empty = Files.createDirectories(reports.resolve("empty"));
        assertThat(Frontrun.mergeShards(
                        empty, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .isEqualTo(2);
    }

    @Test
    void anExplorationIsNamedAfterItsTestAndASecondOneInTheSameTestGetsASuffix() throws IOException {
        holding().shard(0, 2).shardDirectory(reports).run();
        holding().shard(0, 2).shardDirectory(reports).run();

        try (Stream<Path> files = Files.list(reports)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted())
                    .containsExactly(
                            "dev.frontrun.ShardedExplorationTest.anExplorationIsNamedAfterItsTestAndASecondOneInTheSameTestGetsASuffix-2.shard-0-of-2.json",
                            "dev.frontrun.ShardedExplorationTest.anExplorationIsNamedAfterItsTestAndASecondOneInTheSameTestGetsASuffix.shard-0-of-2.json");
        }
    }

    @Test
    void aRandomOrBoundedExplorationIsRunWholeAndABadShardIsRefused() {
        Result random = holding()
                .strategy(Strategy.random(1, 5))
                .shard(1, 2)
                .shardDirectory(reports)
                .run();
        Result bounded =
                holding().preemptionBound(1).shard(1, 2).shardDirectory(reports).run();

        assertThat(random.executions()).isEqualTo(5);
        assertThat(random.notExplored()).noneMatch(note -> note.contains("shard"));
        assertThat(bounded.notExplored()).noneMatch(note -> note.contains("shard"));
        assertThat(reports).isEmptyDirectory();
        assertThatThrownBy(() -> holding().shard(2, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 <= i < n");
    }

    @Test
    void onPostgresTheShardsTogetherExploreTheTracesOfOneUnshardedRun(TestDatabase db) throws IOException {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)");
        DataSource ds = FrontrunDataSource.wrap(db.dataSource());
        Result whole = lostUpdate(db, ds)
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .run();
        lostUpdate(db, ds)
                .shard(0, 1)
                .name("one")
                .shardDirectory(reports.resolve("one"))
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .run();
        ShardMerge.Merged one = single(ShardMerge.merge(reports.resolve("one")));
        Set<String> traces = Set.copyOf(traces(reports.resolve("one")));
        assertThat(one.distinctTraces()).isEqualTo(whole.executions());
        assertThat(whole.verdict()).isEqualTo(Verdict.FAILS);

        for (int n : new int[] {2, 3}) {
            Path directory = reports.resolve("n" + n);
            for (int i = 0; i < n; i++) {
                lostUpdate(db, ds)
                        .shard(i, n)
                        .name("lost-update")
                        .shardDirectory(directory)
                        .stopOnFirstFailure(false)
                        .reproduceOnFailure(0)
                        .run();
            }
            List<String> union = traces(directory);
            assertThat(union).as("%d shards: each trace once", n).doesNotHaveDuplicates();
            assertThat(Set.copyOf(union))
                    .as("%d shards: the unsharded traces", n)
                    .isEqualTo(traces);
            ShardMerge.Merged merged = single(ShardMerge.merge(directory));
            assertThat(merged.verdict()).isEqualTo(Verdict.FAILS);
            assertThat(Schedule.parse(merged.counterexample()).length()).isPositive();
        }
    }

    /** Two autocommit read-then-write increments of one row, and a reader. */
    private static Exploration<Object> lostUpdate(TestDatabase db, DataSource ds) {
        return Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("a", s -> incrementRow(ds))
                .thread("b", s -> incrementRow(ds))
                .thread("reader", s -> readRow(ds))
                .invariant(() -> db.queryInt("SELECT n FROM counter WHERE id = 1") == 2, "n == 2")
                .checkAdvice(false)
                .progress(null, Duration.ofMinutes(1));
    }

    private static void incrementRow(DataSource ds) throws SQLException {
        int n = readRow(ds);
        try (Connection c = ds.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE counter SET n = ? WHERE id = 1")) {
            update.setInt(1, n + 1);
            update.executeUpdate();
        }
    }

    private static int readRow(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement select = c.prepareStatement("SELECT n FROM counter WHERE id = 1");
                ResultSet rs = select.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Every trace hash in every report of the directory, with repetitions. */
    private static List<String> traces(Path directory) throws IOException {
        List<String> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                String json = Files.readString(file);
                String list = json.substring(json.indexOf("\"traces\": [") + 11, json.lastIndexOf(']'));
                for (String hash : list.split(",")) {
                    if (!hash.isBlank()) {
                        all.add(hash.trim().replace("\"", ""));
                    }
                }
            }
        }
        return all;
    }

    private static ShardMerge.Merged single(List<ShardMerge.Merged> merged) {
        assertThat(merged).hasSize(1);
        return merged.get(0);
    }
}

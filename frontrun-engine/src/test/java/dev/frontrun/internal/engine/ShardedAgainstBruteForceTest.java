package dev.frontrun.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.Verdict;
import dev.frontrun.internal.shard.Shard;
import dev.frontrun.internal.shard.ShardMerge;
import dev.frontrun.internal.shard.ShardRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded property test of sharding ({@code Exploration.shard(i, n)}): on random small programs, n = 2, 3 and 5
 * shards together explore exactly the Mazurkiewicz traces of the program (brute force's, which one unsharded run
 * explores too: {@link DporAgainstBruteForceTest}), each trace in one shard only and each schedule once, and the
 * merge of their reports holds with that many distinct traces; a shard run twice explores the same schedules in
 * the same order.
 */
class ShardedAgainstBruteForceTest {

    private static final long BASE_SEED = 0x5EED_F00DL;
    private static final int PROGRAMS = Integer.getInteger("frontrun.sharded.programs", 40);

    @TempDir
    Path reports;

    @TestFactory
    Stream<DynamicTest> shardsTogetherExploreEveryTraceOnce() {
        return seeds().mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            RandomProgram program = RandomProgram.generate(seed);
            Map<String, BruteForce.Trace> expected = BruteForce.traces(program);
            for (int n : new int[] {2, 3, 5}) {
                Set<String> union = new HashSet<>();
                Set<Schedule> schedules = new HashSet<>();
                for (int i = 0; i < n; i++) {
                    List<Schedule> explored = new ArrayList<>();
                    ExplorationOutcome share = new Explorer<>(plan(program, new Shard(i, n), explored)).explore();

                    assertThat(share.verdict())
                            .as("%s shard %d/%d", program, i, n)
                            .isEqualTo(Verdict.HOLDS);
                    assertThat(share.exhausted()).isTrue();
                    assertThat(share.executions()).isEqualTo(explored.size());
                    for (Schedule schedule : explored) {
                        assertThat(union.add(traceKey(program, schedule)))
                                .as("%s shard %d/%d: a trace no shard explored before", program, i, n)
                                .isTrue();
                        assertThat(schedules.add(schedule)).isTrue();
                    }
                }
                assertThat(union).as("%s, %d shards: traces", program, n).isEqualTo(expected.keySet());
            }
        }));
    }

    /** Four threads: the top levels' sleep sets then meet the weak-initial case three threads rarely reach. */
    @TestFactory
    Stream<DynamicTest> fourThreadsTooExploreEveryTraceOnce() {
        return seeds().limit(10)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = fourThreads(seed);
                    Map<String, BruteForce.Trace> expected = BruteForce.traces(program);
                    for (int n : new int[] {1, 2, 3, 5}) {
                        Set<String> union = new HashSet<>();
                        for (int i = 0; i < n; i++) {
                            List<Schedule> explored = new ArrayList<>();
                            new Explorer<>(plan(program, new Shard(i, n), explored)).explore();
                            for (Schedule schedule : explored) {
                                assertThat(union.add(traceKey(program, schedule)))
                                        .as("%s, %d shards: once", program, n)
                                        .isTrue();
                            }
                        }
                        assertThat(union)
                                .as("%s, %d shards: traces", program, n)
                                .isEqualTo(expected.keySet());
                    }
                }));
    }

    /** Four threads on one to three variables, two ops each and two or three for the last (at most 75,600 interleavings). */
    private static RandomProgram fourThreads(long seed) {
        Random random = new Random(seed);
        int resources = 1 + random.nextInt(3);
        List<List<RandomProgram.Op>> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            List<RandomProgram.Op> ops = new ArrayList<>();
            for (int i = 0, count = t < 3 ? 2 : 2 + random.nextInt(2); i < count; i++) {
                ops.add(new RandomProgram.Op(
                        random.nextInt(resources),
                        random.nextBoolean() ? dev.frontrun.Access.READ : dev.frontrun.Access.WRITE));
            }
            threads.add(ops);
        }
        return new RandomProgram(seed, resources, threads);
    }

    @TestFactory
    Stream<DynamicTest> theMergedReportsCountEveryTraceOnceAndHold() {
        return seeds().limit(40)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = RandomProgram.generate(seed);
                    int traces = BruteForce.traces(program).size();
                    for (int n : new int[] {2, 3, 5}) {
                        Path directory = Files.createDirectories(reports.resolve(seed + "-" + n));
                        int executions = 0;
                        for (int i = 0; i < n; i++) {
                            Result share = exploration(program, new ArrayList<>())
                                    .shard(i, n)
                                    .name("seed-" + seed)
                                    .shardDirectory(directory)
                                    .stopOnFirstFailure(false)
                                    .run();
                            assertThat(share.verdict()).isEqualTo(Verdict.HOLDS);
                            assertThat(share.notExplored()).anyMatch(note -> note.contains("shard "));
                            executions += share.executions();
                        }
                        assertThat(executions).as("%s, %d shards", program, n).isEqualTo(traces);
                        List<ShardMerge.Merged> merged = ShardMerge.merge(directory);
                        assertThat(merged).hasSize(1);
                        assertThat(merged.get(0).exploration()).isEqualTo("seed-" + seed);
                        assertThat(merged.get(0).verdict()).isEqualTo(Verdict.HOLDS);
                        assertThat(merged.get(0).distinctTraces()).isEqualTo(traces);
                        assertThat(merged.get(0).executions()).isEqualTo(traces);
                    }
                }));
    }

    /** The plan {@code Exploration.shard(i, n)} makes, with every counted execution's schedule heard. */
    private static ExplorationPlan<RandomProgram.State> plan(
            RandomProgram program, Shard shard, List<Schedule> explored) {
        List<String> names = new ArrayList<>();
        List<ThreadBody<? super RandomProgram.State>> bodies = new ArrayList<>();
        for (int t = 0; t < program.threadCount(); t++) {
            int thread = t;
            names.add("t" + t);
            bodies.add(s -> s.body(thread));
        }
        ShardRun share = new ShardRun(shard);
        return new ExplorationPlan<>(
                new ExplorationPlan.Threads<>(program::newState, names, bodies, List.of()),
                new ExplorationPlan.Judgement<>(
                        (s, outcomes) -> true,
                        "true",
                        names.stream()
                                .map(name -> List.<Class<? extends Throwable>>of())
                                .toList(),
                        Set.of(),
                        thrown -> false),
                new ExplorationPlan.Budget(
                        10_000,
                        Duration.ofMinutes(5),
                        Duration.ofSeconds(30),
                        ExplorationPlan.DEFAULT_MAX_STEPS,
                        0,
                        false),
                new ExplorationPlan.Search(Strategy.dpor(), null, 1, share::policy),
                ExplorationPlan.Model.DATABASE_ONLY,
                new ExplorationPlan.Listeners(
                        (trace, failure) -> {},
                        (schedule, trace) -> explored.add(schedule),
                        null,
                        Duration.ofMinutes(1)));
    }

    /** A RandomProgram announces one step per op, so a schedule names each op: the k-th step of t is t's op k. */
    private static String traceKey(RandomProgram program, Schedule schedule) {
        int[] next = new int[program.threadCount()];
        List<int[]> order = new ArrayList<>();
        for (int thread : schedule.steps()) {
            order.add(new int[] {thread, next[thread]++});
        }
        return program.traceKey(order);
    }

    private static String order(RandomProgram.State run) {
        StringBuilder sb = new StringBuilder();
        run.log.forEach(step -> sb.append(step[0]).append('.').append(step[1]).append(' '));
        return sb.toString();
    }

    static Exploration<RandomProgram.State> exploration(RandomProgram program, List<RandomProgram.State> runs) {
        Exploration<RandomProgram.State> exploration = Frontrun.explore(() -> {
            RandomProgram.State s = program.newState();
            runs.add(s);
            return s;
        });
        for (int t = 0; t < program.threadCount(); t++) {
            int thread = t;
            exploration.thread("t" + t, s -> s.body(thread));
        }
        return exploration.progress(null, Duration.ofMinutes(1));
    }

    private static LongStream seeds() {
        return LongStream.range(0, PROGRAMS).map(i -> BASE_SEED + i);
    }
}

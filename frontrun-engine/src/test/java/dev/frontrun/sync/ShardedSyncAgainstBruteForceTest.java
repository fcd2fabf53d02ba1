package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Schedule;
import dev.frontrun.ThreadBody;
import dev.frontrun.internal.instrument.JavaSyncInstrumentation;
import dev.frontrun.internal.shard.ShardedExplorations;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Sharding with Java synchronization: on the seeded lock, latch, monitor, semaphore and read-write-lock programs of
 * {@link SyncAgainstBruteForceTest}, n = 2, 3 and 5 shards together explore exactly the program's feasible
 * Mazurkiewicz traces, each schedule in one shard and each trace at most once per shard. Unlike programs without
 * blocking ({@code ShardedAgainstBruteForceTest}), two shards may both explore a trace here: a thread waiting for a
 * lock has no event a sleep set could hold, so the top levels enumerate some traces under two leaves (the merge
 * counts distinct traces; BENCHMARKS.md has the overhead).
 */
class ShardedSyncAgainstBruteForceTest {

    private static final int PROGRAMS = Integer.getInteger("frontrun.sharded.programs", 20);

    @BeforeAll
    static void instrument() {
        JavaSyncInstrumentation.ensure(List.of("dev.frontrun.sync.fixtures"));
    }

    @TestFactory
    Stream<DynamicTest> locksAndLatches() {
        return LongStream.range(0, PROGRAMS)
                .map(i -> 0x10C_5EEDL + i)
                .mapToObj(
                        seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(SyncRandomProgram.generate(seed))));
    }

    @TestFactory
    Stream<DynamicTest> waitsPermitsAndReadWriteLocks() {
        return LongStream.range(0, PROGRAMS)
                .map(i -> 0x4A17_5EEDL + i)
                .mapToObj(seed ->
                        DynamicTest.dynamicTest("seed " + seed, () -> check(SyncRandomProgram.generateHandoffs(seed))));
    }

    private static void check(SyncRandomProgram program) {
        List<ThreadBody<? super SyncRandomProgram.State>> bodies = new ArrayList<>();
        for (int t = 0; t < program.threadCount(); t++) {
            int thread = t;
            bodies.add(s -> s.body(thread));
        }
        for (int n : new int[] {2, 3, 5}) {
            Set<String> union = new HashSet<>();
            Set<Schedule> schedules = new HashSet<>();
            int executions = 0;
            for (var share : ShardedExplorations.explore(() -> program.new State(), bodies, n, true)) {
                assertThat(share.outcome().exhausted())
                        .as("%s, %d shards", program, n)
                        .isTrue();
                Set<String> own = new HashSet<>();
                for (SyncRandomProgram.State run : share.counted()) {
                    String trace = program.traceKey(run.log);
                    assertThat(own.add(trace))
                            .as("%s, %d shards: a trace once in a shard", program, n)
                            .isTrue();
                    union.add(trace);
                }
                for (Schedule schedule : share.schedules()) {
                    assertThat(schedules.add(schedule))
                            .as("%s, %d shards: a schedule in one shard", program, n)
                            .isTrue();
                }
                executions += share.counted().size();
            }
            assertThat(union)
                    .as("%s, %d shards: traces", program, n)
                    .isEqualTo(program.bruteForce().keySet());
            assertThat(executions).isGreaterThanOrEqualTo(program.traceCount());
        }
    }
}

package dev.frontrun.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.TraceStep;
import dev.frontrun.Verdict;
import dev.frontrun.internal.engine.policy.DporPolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code parallelism(n)} explores exactly what one worker explores: on random programs, the same
 * executions in the same order (so the same set of Mazurkiewicz traces, checked against brute force),
 * the same verdict and the same first counterexample — exhaustively, stopping at the first failure,
 * and cut short by a budget.
 */
class ParallelExplorationTest {

    private static final long BASE_SEED = 0x5EED_F00DL;
    private static final int PROGRAMS = Integer.getInteger("frontrun.parallel.programs", 25);

    @TestFactory
    Stream<DynamicTest> exhaustiveExplorationsAreTheSequentialOnes() {
        return seeds().mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            RandomProgram program = RandomProgram.generateLarger(seed);
            ParallelRuns.Run sequential = runs(program).explore(1);
            for (int workers : new int[] {2, 3}) {
                ParallelRuns.Run parallel = runs(program).explore(workers);

                assertSame(program, sequential, parallel);
                assertThat(new HashSet<>(traceKeys(program, parallel)))
                        .as("%s", program)
                        .isEqualTo(BruteForce.traces(program).keySet());
                assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.HOLDS);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> theFirstCounterexampleIsTheSequentialOne() {
        return seeds().limit(30)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = RandomProgram.generateLarger(seed);
                    List<String> outcomes = new ArrayList<>(new TreeSet<>(BruteForce.traces(program).values().stream()
                            .map(BruteForce.Trace::outcome)
                            .toList()));
                    String bad = outcomes.get(outcomes.size() / 2);
                    ParallelRuns.Run sequential = runs(program)
                            .invariant((s, o) -> !s.outcome().equals(bad))
                            .stopOnFirstFailure(true)
                            .explore(1);
                    ParallelRuns.Run parallel = runs(program)
                            .invariant((s, o) -> !s.outcome().equals(bad))
                            .stopOnFirstFailure(true)
                            .explore(2);

                    assertSame(program, sequential, parallel);
                    assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.FAILS);
                    assertThat(parallel.outcome().counterexample())
                            .isEqualTo(sequential.outcome().counterexample());
                    assertThat(parallel.outcome().trace().stream()
                                    .map(TraceStep::thread)
                                    .toList())
                            .isEqualTo(sequential.outcome().trace().stream()
                                    .map(TraceStep::thread)
                                    .toList());
                    assertThat(parallel.outcome().reproduced()).isEqualTo(1);
                }));
    }

    @TestFactory
    Stream<DynamicTest> aBudgetCutsTheSameExecutionsShort() {
        return seeds().limit(30)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = RandomProgram.generateLarger(seed);
                    int all = BruteForce.traces(program).size();
                    int budget = Math.max(1, all / 2);
                    ParallelRuns.Run sequential =
                            runs(program).maxExecutions(budget).explore(1);
                    ParallelRuns.Run parallel =
                            runs(program).maxExecutions(budget).explore(2);

                    assertSame(program, sequential, parallel);
                    assertThat(parallel.outcome().executions()).isEqualTo(budget);
                    assertThat(parallel.outcome().verdict())
                            .isEqualTo(budget < all ? Verdict.INCONCLUSIVE : Verdict.HOLDS);
                }));
    }

    @TestFactory
    Stream<DynamicTest> preemptionBoundedExplorationsAreTheSequentialOnes() {
        return seeds().limit(30)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = RandomProgram.generateLarger(seed);
                    for (int bound = 0; bound <= 1; bound++) {
                        assertSame(
                                program,
                                runs(program).preemptionBound(bound).explore(1),
                                runs(program).preemptionBound(bound).explore(2));
                    }
                }));
    }

    /**
     * An execution run ahead of time that the policy would not have chosen is run again: here each pending
     * branch is run ahead under the fork of another pending branch, so every such execution is rejected,
     * and what the exploration counts is still exactly the sequential executions, in order.
     */
    @Test
    void executionsThePolicyWouldNotHaveChosenAreRunAgain() {
        int ranAgain = 0;
        for (long seed : seeds().limit(20).toArray()) {
            RandomProgram program = RandomProgram.generateLarger(seed);
            ParallelRuns<RandomProgram.State> runs = runs(program);
            ParallelRuns.Run sequential = runs.explore(1);
            Explorer<RandomProgram.State> explorer = runs.explorer();
            DporPolicy policy = new DporPolicy(null);
            List<dev.frontrun.Schedule> schedules = new ArrayList<>();
            try (ParallelExecutions parallel = new ParallelExecutions(
                    policy,
                    2,
                    runs.names(),
                    List.of(),
                    new ExplorationClock(),
                    explorer::runOnce,
                    ParallelExplorationTest::anotherBranch)) {
                parallel.start();
                boolean more = true;
                while (more) {
                    Executions.Ran ran = parallel.next(policy, System.nanoTime() + 60_000_000_000L);
                    more = ran.more();
                    if (!policy.lastExecutionRedundant()) {
                        schedules.add(ran.judged().record().schedule());
                    }
                }
                ranAgain += parallel.ranAgain();
            }
            assertThat(schedules).as("%s", program).isEqualTo(sequential.schedules());
        }
        assertThat(ranAgain).as("misled executions run again").isGreaterThan(0);
    }

    /** The fork of a pending branch other than {@code branch}, when there is one: a speculation the policy rejects. */
    private static DporPolicy anotherBranch(DporPolicy policy, DporPolicy.Branch branch) {
        List<DporPolicy.Branch> pending = policy.pendingInOrder();
        DporPolicy.Branch other =
                pending.get(pending.size() - 1).equals(branch) ? pending.get(0) : pending.get(pending.size() - 1);
        return policy.forkFor(other);
    }

    private static void assertSame(RandomProgram program, ParallelRuns.Run sequential, ParallelRuns.Run parallel) {
        assertThat(parallel.schedules())
                .as("%s: the executions, in order", program)
                .isEqualTo(sequential.schedules());
        assertThat(traceKeys(program, parallel))
                .as("%s: their traces", program)
                .isEqualTo(traceKeys(program, sequential));
        assertThat(parallel.outcome().executions())
                .isEqualTo(sequential.outcome().executions());
        assertThat(parallel.outcome().verdict()).isEqualTo(sequential.outcome().verdict());
        assertThat(parallel.outcome().exhausted())
                .isEqualTo(sequential.outcome().exhausted());
        assertThat(parallel.outcome().counterexample())
                .isEqualTo(sequential.outcome().counterexample());
    }

    /** Each counted execution's Mazurkiewicz trace, as the program's canonical key. */
    private static List<String> traceKeys(RandomProgram program, ParallelRuns.Run run) {
        List<String> keys = new ArrayList<>();
        for (List<TraceStep> trace : run.traces()) {
            int[] next = new int[program.threadCount()];
            List<int[]> order = new ArrayList<>();
            for (TraceStep step : trace) {
                order.add(new int[] {step.thread(), next[step.thread()]++});
            }
            keys.add(program.traceKey(order));
        }
        return keys;
    }

    private static ParallelRuns<RandomProgram.State> runs(RandomProgram program) {
        ParallelRuns<RandomProgram.State> runs = new ParallelRuns<>(program::newState);
        for (int t = 0; t < program.threadCount(); t++) {
            int thread = t;
            runs.thread("t" + t, s -> s.body(thread));
        }
        return runs;
    }

    private static LongStream seeds() {
        return LongStream.range(0, PROGRAMS).map(i -> BASE_SEED + i);
    }
}

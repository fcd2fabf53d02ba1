package dev.frontrun.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Seeded property test: on hundreds of random small programs, DPOR explores every Mazurkiewicz
 * trace exactly once (sound and optimal) and finds every invariant violation brute force finds.
 * Each dynamic test names its seed; rerun one with {@code RandomProgram.generate(seed)}.
 */
class DporAgainstBruteForceTest {

    private static final long BASE_SEED = 0x5EED_F00DL;
    private static final int PROGRAMS = 300;

    @TestFactory
    Stream<DynamicTest> exploresEveryTraceExactlyOnce() {
        return seeds().mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            RandomProgram program = RandomProgram.generate(seed);
            Map<String, BruteForce.Trace> expected = BruteForce.traces(program);
            List<RandomProgram.State> runs = new ArrayList<>();

            Result result = exploration(program, runs).stopOnFirstFailure(false).run();

            List<String> explored =
                    runs.stream().map(s -> program.traceKey(s.log)).toList();
            assertThat(new HashSet<>(explored))
                    .as("%s: traces explored", program)
                    .isEqualTo(expected.keySet());
            assertThat(explored).as("%s: no trace twice", program).doesNotHaveDuplicates();
            assertThat(result.executions()).as("%s", program).isEqualTo(expected.size());
            assertThat(result.exhausted()).isTrue();
            Set<String> outcomes = new TreeSet<>();
            runs.forEach(s -> outcomes.add(s.outcome()));
            assertThat(outcomes)
                    .as("%s: final states", program)
                    .isEqualTo(new TreeSet<>(expected.values().stream()
                            .map(BruteForce.Trace::outcome)
                            .toList()));
        }));
    }

    @TestFactory
    Stream<DynamicTest> findsEveryViolationBruteForceFinds() {
        return seeds().limit(150)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = RandomProgram.generate(seed);
                    Set<String> outcomes = new TreeSet<>();
                    BruteForce.traces(program).values().forEach(t -> outcomes.add(t.outcome()));
                    for (String bad : outcomes) {
                        Result result = Frontrun.explore(program::newState)
                                .thread("t0", s -> s.body(0))
                                .thread("t1", s -> s.body(1))
                                .thread("t2", s -> {
                                    if (program.threadCount() > 2) s.body(2);
                                })
                                .invariant(s -> !s.outcome().equals(bad))
                                .reproduceOnFailure(1)
                                .run();
                        assertThat(result.verdict())
                                .as("%s: outcome %s must be found", program, bad)
                                .isEqualTo(Verdict.FAILS);
                        assertThat(result.reproduced()).isEqualTo(1);
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> preemptionBoundsExploreTheDocumentedSubsets() {
        return seeds().limit(150)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    RandomProgram program = RandomProgram.generate(seed);
                    Map<String, BruteForce.Trace> all = BruteForce.traces(program);
                    for (int bound = 0; bound <= 2; bound++) {
                        List<RandomProgram.State> runs = new ArrayList<>();
                        Result result = exploration(program, runs)
                                .preemptionBound(bound)
                                .stopOnFirstFailure(false)
                                .run();

                        List<String> explored =
                                runs.stream().map(s -> program.traceKey(s.log)).toList();
                        assertThat(explored)
                                .as("%s bound %d: no trace twice", program, bound)
                                .doesNotHaveDuplicates();
                        assertThat(all.keySet())
                                .as("%s bound %d", program, bound)
                                .containsAll(explored);
                        for (RandomProgram.State run : runs) {
                            assertThat(program.preemptions(run.log))
                                    .as("%s bound %d", program, bound)
                                    .isLessThanOrEqualTo(bound);
                        }
                        Set<String> serial = new HashSet<>();
                        all.forEach((key, trace) -> {
                            if (trace.serial()) {
                                serial.add(key);
                            }
                        });
                        assertThat(explored)
                                .as("%s bound %d: every serial execution", program, bound)
                                .containsAll(serial);
                        assertThat(result.exhausted()).isFalse();
                        assertThat(result.verdict()).isNotEqualTo(Verdict.HOLDS);
                    }
                }));
    }

    private static Exploration<RandomProgram.State> exploration(RandomProgram program, List<RandomProgram.State> runs) {
        Exploration<RandomProgram.State> exploration = Frontrun.explore(() -> {
            RandomProgram.State s = program.newState();
            runs.add(s);
            return s;
        });
        for (int t = 0; t < program.threadCount(); t++) {
            int thread = t;
            exploration.thread("t" + t, s -> s.body(thread));
        }
        return exploration;
    }

    private static LongStream seeds() {
        return LongStream.range(0, PROGRAMS).map(i -> BASE_SEED + i);
    }
}

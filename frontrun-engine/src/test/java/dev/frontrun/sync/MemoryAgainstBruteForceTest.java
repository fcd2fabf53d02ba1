package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The brute-force check over real instrumented memory: on seeded random programs whose threads touch two
 * shared fields, boxes of their own, and boxes handed over through a shared slot, DPOR runs exactly one
 * execution per Mazurkiewicz trace of the program with the objects' true identities — so per-object names
 * order exactly the accesses identity orders (fewer would miss traces, more would repeat them). Rerun one
 * program with {@code MemoryRandomProgram.generate(seed)}.
 */
class MemoryAgainstBruteForceTest {

    private static final long BASE_SEED = 0x0B1EC75L;
    private static final int PROGRAMS = 150;

    @TestFactory
    Stream<DynamicTest> exploresEveryTraceOfTheTrueIdentitiesExactlyOnce() {
        return LongStream.range(0, PROGRAMS)
                .map(i -> BASE_SEED + i)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    MemoryRandomProgram program = MemoryRandomProgram.generate(seed);
                    Map<String, String> expected = program.bruteForce();
                    List<MemoryRandomProgram.Run> runs = new ArrayList<>();

                    Exploration<MemoryRandomProgram.Run> exploration = Frontrun.explore(() -> {
                                MemoryRandomProgram.Run run = program.new Run();
                                runs.add(run);
                                return run;
                            })
                            .instrument("dev.frontrun.sync.fixtures");
                    for (int t = 0; t < program.threadCount(); t++) {
                        int thread = t;
                        exploration.thread("t" + t, run -> {
                            for (int i = 0; i < program.threads().get(thread).size(); i++) {
                                run.runReally(thread);
                            }
                        });
                    }
                    Result result = exploration
                            .stopOnFirstFailure(false)
                            .reproduceOnFailure(0)
                            .reportDirectory(null)
                            .run();

                    Set<String> explored = new HashSet<>();
                    runs.forEach(run -> explored.add(program.traceKeyOf(run.order)));
                    assertThat(explored).as("%s: traces explored", program).isEqualTo(expected.keySet());
                    assertThat(result.executions())
                            .as("%s: executions", program)
                            .isEqualTo(expected.size());
                    assertThat(result.exhausted()).as("%s", program).isTrue();
                    Set<String> outcomes = new TreeSet<>();
                    runs.forEach(run -> outcomes.add(run.outcome()));
                    assertThat(outcomes).as("%s: final states", program).isEqualTo(new TreeSet<>(expected.values()));
                }));
    }

    /** The seeds do exercise what the check is about: boxes two threads write each on its own, and boxes handed over. */
    @Test
    void theSeededProgramsWriteOwnBoxesAndHandBoxesOver() {
        int ownBoxes = 0;
        int handedOver = 0;
        for (long i = 0; i < PROGRAMS; i++) {
            MemoryRandomProgram program = MemoryRandomProgram.generate(BASE_SEED + i);
            long writers = program.threads().stream()
                    .filter(ops -> ops.contains(MemoryRandomProgram.Op.WRITE_BOX))
                    .count();
            ownBoxes += writers >= 2 ? 1 : 0;
            handedOver += program.touchesAnothersBox() ? 1 : 0;
        }
        assertThat(ownBoxes).isGreaterThan(PROGRAMS / 10);
        assertThat(handedOver).isGreaterThan(PROGRAMS / 5);
    }
}

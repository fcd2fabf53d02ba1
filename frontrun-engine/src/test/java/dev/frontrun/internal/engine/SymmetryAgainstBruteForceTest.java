package dev.frontrun.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.spi.SchedulingPoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Seeded property test of symmetry: on random programs where two or three threads run one body (beside, perhaps, one
 * other thread), exploring with {@code threads(n, name, body)} reaches every final state brute force reaches (up to
 * which member is which), and runs exactly one execution per trace of the program in which each member starts after
 * the one before it.
 */
class SymmetryAgainstBruteForceTest {

    private static final long BASE_SEED = 0x5_1AA_E7L;
    private static final int PROGRAMS = 200;

    /** Members run {@code shared}; the other thread, if any, runs {@code other}. Ops: resource and kind. */
    record Program(long seed, int resources, int members, List<Op> shared, List<Op> other) {

        record Op(int resource, Access kind) {
            @Override
            public String toString() {
                return (kind == Access.READ ? "r" : "w") + resource;
            }
        }

        static Program generate(long seed) {
            Random random = new Random(seed);
            int members = 2 + random.nextInt(2);
            int resources = 1 + random.nextInt(3);
            List<Op> shared = ops(random, resources, 1 + random.nextInt(members == 2 ? 4 : 3));
            List<Op> other =
                    members == 2 && random.nextBoolean() ? ops(random, resources, 1 + random.nextInt(3)) : List.of();
            return new Program(seed, resources, members, shared, other);
        }

        private static List<Op> ops(Random random, int resources, int count) {
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ops.add(new Op(random.nextInt(resources), random.nextBoolean() ? Access.READ : Access.WRITE));
            }
            return ops;
        }

        int threads() {
            return members + (other.isEmpty() ? 0 : 1);
        }

        List<Op> ops(int thread) {
            return thread < members ? shared : other;
        }

        boolean conflict(int t1, int i1, int t2, int i2) {
            Op a = ops(t1).get(i1);
            Op b = ops(t2).get(i2);
            return t1 != t2 && a.resource() == b.resource() && a.kind().conflictsWith(b.kind());
        }

        /** The order of every conflicting pair: equal exactly for equivalent interleavings. */
        String traceKey(List<int[]> order) {
            int[][] position = new int[threads()][];
            for (int t = 0; t < threads(); t++) {
                position[t] = new int[ops(t).size()];
            }
            for (int p = 0; p < order.size(); p++) {
                position[order.get(p)[0]][order.get(p)[1]] = p;
            }
            StringBuilder key = new StringBuilder();
            for (int t1 = 0; t1 < threads(); t1++) {
                for (int i1 = 0; i1 < ops(t1).size(); i1++) {
                    for (int t2 = t1 + 1; t2 < threads(); t2++) {
                        for (int i2 = 0; i2 < ops(t2).size(); i2++) {
                            if (conflict(t1, i1, t2, i2)) {
                                key.append(position[t1][i1] < position[t2][i2] ? '<' : '>');
                            }
                        }
                    }
                }
            }
            return key.toString();
        }

        /** Whether each member's first op comes after the first op of the member before it. */
        boolean membersStartInOrder(List<int[]> order) {
            int expected = 0;
            boolean[] started = new boolean[members];
            for (int[] step : order) {
                if (step[0] < members && !started[step[0]]) {
                    if (step[0] != expected) {
                        return false;
                    }
                    started[step[0]] = true;
                    expected++;
                }
            }
            return true;
        }

        State newState() {
            return new State();
        }

        /** Shared values and per-thread registers; a write stores what its thread read, never who it is. */
        final class State {
            final int[] values = new int[resources];
            final int[] registers = new int[threads()];

            void run(int thread, int index) {
                Op op = ops(thread).get(index);
                if (op.kind() == Access.READ) {
                    registers[thread] = registers[thread] * 31 + values[op.resource()] + 1;
                } else {
                    values[op.resource()] = index * 100 + registers[thread] + (thread < members ? 0 : 50_000);
                }
            }

            /** The body every member runs: the same ops, its own register. */
            void member() {
                int thread = SchedulingPoints.currentThreadIndex().orElseThrow();
                for (int i = 0; i < shared.size(); i++) {
                    Frontrun.access(
                            "v" + shared.get(i).resource(), shared.get(i).kind());
                    run(thread, i);
                }
            }

            void other() {
                for (int i = 0; i < other.size(); i++) {
                    Frontrun.access("v" + other.get(i).resource(), other.get(i).kind());
                    run(members, i);
                }
            }

            /** The final values, the members' registers as a multiset, the other thread's register. */
            String outcome() {
                int[] memberRegisters = Arrays.copyOf(registers, members);
                Arrays.sort(memberRegisters);
                return Arrays.toString(values)
                        + Arrays.toString(memberRegisters)
                        + (other.isEmpty() ? "" : "+" + registers[members]);
            }
        }

        @Override
        public String toString() {
            return "program(seed=" + seed + ") " + members + " x " + shared + (other.isEmpty() ? "" : ", " + other);
        }
    }

    @TestFactory
    Stream<DynamicTest> reachesEveryOutcomeWithOneExecutionPerTraceOfTheOrderedStarts() {
        return LongStream.range(BASE_SEED, BASE_SEED + PROGRAMS)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    Program program = Program.generate(seed);
                    Set<String> outcomes = new HashSet<>();
                    Set<String> orderedTraces = new HashSet<>();
                    enumerate(program, new int[program.threads()], new ArrayList<>(), order -> {
                        Program.State state = program.newState();
                        for (int[] step : order) {
                            state.run(step[0], step[1]);
                        }
                        outcomes.add(state.outcome());
                        if (program.membersStartInOrder(order)) {
                            orderedTraces.add(program.traceKey(order));
                        }
                    });

                    Set<String> reached = new HashSet<>();
                    var exploration =
                            Frontrun.explore(program::newState).threads(program.members(), "m", Program.State::member);
                    if (!program.other().isEmpty()) {
                        exploration.thread("other", Program.State::other);
                    }
                    Result result = exploration
                            .invariant(s -> reached.add(s.outcome()) || true)
                            .stopOnFirstFailure(false)
                            .run();

                    assertThat(result.exhausted()).as("%s", program).isTrue();
                    assertThat(reached).as("%s: final states", program).isEqualTo(outcomes);
                    assertThat(result.executions())
                            .as("%s: executions", program)
                            .isEqualTo(orderedTraces.size());
                    assertThat(result.symmetric()).hasSize(1);
                }));
    }

    private static void enumerate(
            Program program, int[] next, List<int[]> order, java.util.function.Consumer<List<int[]>> visit) {
        boolean any = false;
        for (int t = 0; t < program.threads(); t++) {
            if (next[t] < program.ops(t).size()) {
                any = true;
                order.add(new int[] {t, next[t]});
                next[t]++;
                enumerate(program, next, order, visit);
                next[t]--;
                order.remove(order.size() - 1);
            }
        }
        if (!any) {
            visit.accept(order);
        }
    }
}

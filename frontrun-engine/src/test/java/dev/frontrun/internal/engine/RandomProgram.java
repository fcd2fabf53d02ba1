package dev.frontrun.internal.engine;

import dev.frontrun.Access;
import dev.frontrun.Frontrun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A small random program of threads reading and writing shared integers, with a deterministic
 * semantics: reads fold the value into a thread register, writes store a hash of the register.
 * Both the real exploration and the brute-force enumerator run it.
 */
record RandomProgram(long seed, int resources, List<List<Op>> threads) {

    record Op(int resource, Access kind) {
        @Override
        public String toString() {
            return (kind == Access.READ ? "r" : "w") + resource;
        }
    }

    static RandomProgram generate(long seed) {
        Random random = new Random(seed);
        int threadCount = 2 + random.nextInt(2);
        int resources = 1 + random.nextInt(3);
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            int ops = 1 + random.nextInt(4);
            List<Op> list = new ArrayList<>();
            for (int i = 0; i < ops; i++) {
                list.add(new Op(random.nextInt(resources), random.nextBoolean() ? Access.READ : Access.WRITE));
            }
            threads.add(list);
        }
        return new RandomProgram(seed, resources, threads);
    }

    /**
     * A larger program (two threads of 4–6 ops, or three of 3–4), whose explorations plant several
     * branches at once: what a parallel exploration's speculation needs to be exercised.
     */
    static RandomProgram generateLarger(long seed) {
        Random random = new Random(seed);
        int threadCount = random.nextInt(3) == 0 ? 2 : 3;
        int resources = 2 + random.nextInt(2);
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            int ops = threadCount == 2 ? 4 + random.nextInt(3) : 3 + random.nextInt(2);
            List<Op> list = new ArrayList<>();
            for (int i = 0; i < ops; i++) {
                list.add(new Op(random.nextInt(resources), random.nextBoolean() ? Access.READ : Access.WRITE));
            }
            threads.add(list);
        }
        return new RandomProgram(seed, resources, threads);
    }

    int threadCount() {
        return threads.size();
    }

    Op op(int thread, int index) {
        return threads.get(thread).get(index);
    }

    /** The mutable state of one run: shared values, registers, and the order ops ran in. */
    final class State {
        final int[] values = new int[resources];
        final int[] registers = new int[threads.size()];
        final List<int[]> log = new ArrayList<>();

        void run(int thread, int index) {
            Op op = op(thread, index);
            if (op.kind() == Access.READ) {
                registers[thread] = registers[thread] * 31 + values[op.resource()] + 1;
            } else {
                values[op.resource()] = (thread + 1) * 1_000 + index * 100 + registers[thread];
            }
            log.add(new int[] {thread, index});
        }

        /** The thread body: announce each op to the scheduler, then run it. */
        void body(int thread) {
            List<Op> ops = threads.get(thread);
            for (int i = 0; i < ops.size(); i++) {
                Frontrun.access("v" + ops.get(i).resource(), ops.get(i).kind());
                run(thread, i);
            }
        }

        String outcome() {
            return Arrays.toString(values) + Arrays.toString(registers);
        }
    }

    State newState() {
        return new State();
    }

    /** Whether two ops of different threads conflict (same variable, at least one write). */
    boolean conflict(int t1, int i1, int t2, int i2) {
        Op a = op(t1, i1);
        Op b = op(t2, i2);
        return t1 != t2 && a.resource() == b.resource() && a.kind().conflictsWith(b.kind());
    }

    /**
     * The Mazurkiewicz trace of an interleaving, as the order of every conflicting pair of ops:
     * two interleavings are equivalent exactly when their keys are equal.
     */
    String traceKey(List<int[]> order) {
        int[][] position = new int[threads.size()][];
        for (int t = 0; t < threads.size(); t++) {
            position[t] = new int[threads.get(t).size()];
        }
        for (int p = 0; p < order.size(); p++) {
            position[order.get(p)[0]][order.get(p)[1]] = p;
        }
        StringBuilder key = new StringBuilder();
        for (int t1 = 0; t1 < threads.size(); t1++) {
            for (int i1 = 0; i1 < threads.get(t1).size(); i1++) {
                for (int t2 = t1 + 1; t2 < threads.size(); t2++) {
                    for (int i2 = 0; i2 < threads.get(t2).size(); i2++) {
                        if (conflict(t1, i1, t2, i2)) {
                            key.append(position[t1][i1] < position[t2][i2] ? '<' : '>');
                        }
                    }
                }
            }
        }
        return key.toString();
    }

    /** Preemptions of an interleaving: switches away from a thread that still had ops to run. */
    int preemptions(List<int[]> order) {
        int[] left = new int[threads.size()];
        for (int t = 0; t < threads.size(); t++) {
            left[t] = threads.get(t).size();
        }
        int count = 0;
        int last = -1;
        for (int[] step : order) {
            if (last >= 0 && step[0] != last && left[last] > 0) {
                count++;
            }
            left[step[0]]--;
            last = step[0];
        }
        return count;
    }

    @Override
    public String toString() {
        return "program(seed=" + seed + ") " + threads;
    }
}

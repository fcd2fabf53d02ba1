package dev.frontrun.sync;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.sync.fixtures.SyncProgramMachine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A small random program of threads whose steps access one or two shared integers, take and release
 * locks (possibly nested, in either order: deadlocks happen) and count down or await latches; with
 * a brute-force enumerator of every feasible interleaving (a thread waits while another holds its
 * lock or its latch is not counted down; an execution ends when a lock wait-for cycle forms or no
 * thread can run) and the Mazurkiewicz trace of each.
 */
record SyncRandomProgram(long seed, int resources, List<List<Op>> threads) {

    sealed interface Op {
    }

    /** One step with one or more accesses. */
    record Touch(List<int[]> accesses) implements Op {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int[] a : accesses) {
                sb.append(a[1] == 0 ? "r" : "w").append(a[0]);
            }
            return sb.toString();
        }
    }

    record Lock(int lock) implements Op {
        @Override
        public String toString() {
            return "L" + lock;
        }
    }

    record Unlock(int lock) implements Op {
        @Override
        public String toString() {
            return "U" + lock;
        }
    }

    record Signal(int latch) implements Op {
        @Override
        public String toString() {
            return "S" + latch;
        }
    }

    record Await(int latch) implements Op {
        @Override
        public String toString() {
            return "A" + latch;
        }
    }

    static SyncRandomProgram generate(long seed) {
        Random random = new Random(seed);
        int threadCount = 2 + random.nextInt(2);
        int resources = 1 + random.nextInt(2);
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            List<Op> ops = new ArrayList<>();
            int touches = 1 + random.nextInt(3);
            for (int i = 0; i < touches; i++) {
                List<int[]> accesses = new ArrayList<>();
                int count = random.nextInt(4) == 0 ? 2 : 1;
                for (int a = 0; a < count; a++) {
                    accesses.add(new int[] {random.nextInt(resources), random.nextInt(2)});
                }
                ops.add(new Touch(accesses));
            }
            if (random.nextInt(3) > 0) { // a critical section around some steps
                int outer = random.nextInt(2);
                int from = random.nextInt(ops.size());
                int to = from + 1 + random.nextInt(ops.size() - from);
                ops.add(to, new Unlock(outer));
                ops.add(from, new Lock(outer));
                if (random.nextBoolean()) { // a nested one on the other lock
                    int inner = 1 - outer;
                    int at = from + 1 + random.nextInt(to - from);
                    ops.add(at + 1, new Unlock(inner));
                    ops.add(at, new Lock(inner));
                }
            }
            threads.add(ops);
        }
        if (random.nextInt(3) == 0) { // a latch: one thread counts down, another awaits, outside critical sections
            int latch = random.nextInt(2);
            int signaller = random.nextInt(threadCount);
            int waiter = (signaller + 1 + random.nextInt(threadCount - 1)) % threadCount;
            insertOutsideLocks(threads.get(signaller), new Signal(latch), random);
            insertOutsideLocks(threads.get(waiter), new Await(latch), random);
        }
        return new SyncRandomProgram(seed, resources, threads);
    }

    private static void insertOutsideLocks(List<Op> ops, Op op, Random random) {
        List<Integer> positions = new ArrayList<>();
        int depth = 0;
        for (int i = 0; i <= ops.size(); i++) {
            if (depth == 0) {
                positions.add(i);
            }
            if (i < ops.size()) {
                depth += ops.get(i) instanceof Lock ? 1 : ops.get(i) instanceof Unlock ? -1 : 0;
            }
        }
        ops.add(positions.get(random.nextInt(positions.size())), op);
    }

    int threadCount() {
        return threads.size();
    }

    int opCount() {
        return threads.stream().mapToInt(List::size).sum();
    }

    /** The state of one run: shared values, registers, and the ops in the order they ran. */
    final class State {
        final int[] values = new int[resources];
        final int[] registers = new int[threads.size()];
        final List<int[]> log = new ArrayList<>();
        final SyncProgramMachine machine = new SyncProgramMachine();

        void apply(int thread, int index) {
            if (threads.get(thread).get(index) instanceof Touch touch) {
                for (int[] a : touch.accesses()) {
                    if (a[1] == 0) {
                        registers[thread] = registers[thread] * 31 + values[a[0]] + 1;
                    } else {
                        values[a[0]] = (thread + 1) * 1_000 + index * 100 + registers[thread];
                    }
                }
            }
            log.add(new int[] {thread, index});
        }

        /** The thread body: each op through the real, instrumented machine, or as one explicit step. */
        void body(int thread) throws InterruptedException {
            List<Op> ops = threads.get(thread);
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                if (op instanceof Touch touch) {
                    List<ResourceAccess> accesses = new ArrayList<>();
                    for (int[] a : touch.accesses()) {
                        accesses.add(new ResourceAccess("v" + a[0], a[1] == 0 ? Access.READ : Access.WRITE));
                    }
                    SchedulingPoints.step(Step.of(touch.toString(), accesses));
                } else if (op instanceof Lock l) {
                    machine.lock(l.lock());
                } else if (op instanceof Unlock u) {
                    machine.unlock(u.lock());
                } else if (op instanceof Signal s) {
                    machine.signal(s.latch());
                } else if (op instanceof Await w) {
                    machine.await(w.latch());
                }
                apply(thread, i);
            }
        }

        String outcome(boolean deadlocked) {
            return Arrays.toString(values) + Arrays.toString(registers) + (deadlocked ? " deadlock" : "");
        }
    }

    /** Whether two ops of different threads are dependent. */
    boolean conflict(int t1, int i1, int t2, int i2) {
        if (t1 == t2) {
            return false;
        }
        Op a = threads.get(t1).get(i1);
        Op b = threads.get(t2).get(i2);
        if (a instanceof Touch x && b instanceof Touch y) {
            for (int[] p : x.accesses()) {
                for (int[] q : y.accesses()) {
                    if (p[0] == q[0] && (p[1] == 1 || q[1] == 1)) {
                        return true;
                    }
                }
            }
            return false;
        }
        Integer la = lockOf(a);
        Integer lb = lockOf(b);
        if (la != null && la.equals(lb)) {
            return true;
        }
        Integer ca = latchOf(a);
        Integer cb = latchOf(b);
        return ca != null && ca.equals(cb) && (a instanceof Signal || b instanceof Signal);
    }

    private static Integer lockOf(Op op) {
        return op instanceof Lock l ? Integer.valueOf(l.lock()) : op instanceof Unlock u ? Integer.valueOf(u.lock()) : null;
    }

    private static Integer latchOf(Op op) {
        return op instanceof Signal s ? Integer.valueOf(s.latch()) : op instanceof Await w ? Integer.valueOf(w.latch()) : null;
    }

    /** The trace of a (possibly partial) execution: which ops ran, and the order of every dependent pair that did. */
    String traceKey(List<int[]> order) {
        int[][] position = new int[threads.size()][];
        for (int t = 0; t < threads.size(); t++) {
            position[t] = new int[threads.get(t).size()];
            Arrays.fill(position[t], -1);
        }
        for (int p = 0; p < order.size(); p++) {
            position[order.get(p)[0]][order.get(p)[1]] = p;
        }
        StringBuilder key = new StringBuilder();
        for (int t = 0; t < threads.size(); t++) {
            int ran = 0;
            while (ran < position[t].length && position[t][ran] >= 0) {
                ran++;
            }
            key.append(ran).append('/');
        }
        for (int t1 = 0; t1 < threads.size(); t1++) {
            for (int i1 = 0; i1 < threads.get(t1).size(); i1++) {
                for (int t2 = t1 + 1; t2 < threads.size(); t2++) {
                    for (int i2 = 0; i2 < threads.get(t2).size(); i2++) {
                        if (conflict(t1, i1, t2, i2) && position[t1][i1] >= 0 && position[t2][i2] >= 0) {
                            key.append(position[t1][i1] < position[t2][i2] ? '<' : '>');
                        }
                    }
                }
            }
        }
        return key.toString();
    }

    /** Every trace of every feasible maximal execution, with its outcome. */
    Map<String, String> bruteForce() {
        Map<String, String> traces = new HashMap<>();
        dfs(new int[threads.size()], new int[] {-1, -1}, new int[] {1, 1}, new ArrayList<>(), traces);
        return traces;
    }

    private void dfs(int[] next, int[] owner, int[] latch, List<int[]> order, Map<String, String> traces) {
        boolean any = false;
        boolean unfinished = false;
        if (!lockCycle(next, owner)) {
            for (int t = 0; t < threads.size(); t++) {
                if (next[t] >= threads.get(t).size()) {
                    continue;
                }
                unfinished = true;
                Op op = threads.get(t).get(next[t]);
                if (op instanceof Lock l && owner[l.lock()] >= 0 || op instanceof Await w && latch[w.latch()] > 0) {
                    continue;
                }
                any = true;
                int[] owner2 = owner.clone();
                int[] latch2 = latch.clone();
                if (op instanceof Lock l) {
                    owner2[l.lock()] = t;
                } else if (op instanceof Unlock u) {
                    owner2[u.lock()] = -1;
                } else if (op instanceof Signal s) {
                    latch2[s.latch()] = 0;
                }
                order.add(new int[] {t, next[t]});
                next[t]++;
                dfs(next, owner2, latch2, order, traces);
                next[t]--;
                order.remove(order.size() - 1);
            }
        } else {
            unfinished = true;
        }
        if (!any) {
            State state = new State();
            for (int[] step : order) {
                state.apply(step[0], step[1]);
            }
            traces.put(traceKey(order), state.outcome(unfinished));
        }
    }

    /** Whether threads waiting for locks wait for each other in a cycle. */
    private boolean lockCycle(int[] next, int[] owner) {
        for (int start = 0; start < threads.size(); start++) {
            int current = start;
            for (int hops = 0; hops <= threads.size(); hops++) {
                current = waitsFor(current, next, owner);
                if (current < 0) {
                    break;
                }
                if (current == start) {
                    return true;
                }
            }
        }
        return false;
    }

    private int waitsFor(int t, int[] next, int[] owner) {
        if (next[t] >= threads.get(t).size() || !(threads.get(t).get(next[t]) instanceof Lock l)) {
            return -1;
        }
        int holder = owner[l.lock()];
        return holder == t ? -1 : holder;
    }

    @Override
    public String toString() {
        return "sync program(seed=" + seed + ") " + threads;
    }
}

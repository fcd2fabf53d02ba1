package dev.frontrun.sync;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.sync.fixtures.SyncProgramMachine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A small random program of threads whose steps access one or two shared integers, take and release
 * locks (possibly nested, in either order: deadlocks happen) and count down or await latches, or (the
 * second kind, {@link #generateHandoffs}) enter monitors and wait, notify or notify all in them, take and
 * release semaphore permits and read or write locks; with a brute-force enumerator of every feasible
 * interleaving (a thread waits while another holds its lock, its latch is not counted down, no permit is
 * left, or it waits in a wait set no notification has let it out of; a {@code notify} may wake any of the
 * threads waiting at that moment; an execution ends when a lock wait-for cycle forms or no thread can
 * run) and the Mazurkiewicz trace of each.
 */
record SyncRandomProgram(long seed, int resources, int permits, List<List<Op>> threads, Dependencies dependencies) {

    SyncRandomProgram(long seed, int resources, int permits, List<List<Op>> threads) {
        this(seed, resources, permits, threads, Dependencies.of(threads));
    }

    /**
     * Which ops of two threads are dependent, worked out once per program: the trace key of every execution,
     * brute-forced or explored, asks it for every pair of ops. Asked afresh (two access maps per pair) it was the
     * suite's hottest code, and a C2 compilation of it that deoptimized on every call, never recompiled, made the
     * handoff seeds 20-40x slower in some runs (BENCHMARKS.md, "Engine suite time").
     */
    record Dependencies(boolean[][][][] dependent) {

        static Dependencies of(List<List<Op>> threads) {
            boolean[][][][] dependent = new boolean[threads.size()][][][];
            for (int t1 = 0; t1 < threads.size(); t1++) {
                dependent[t1] = new boolean[threads.get(t1).size()][threads.size()][];
                for (int i1 = 0; i1 < threads.get(t1).size(); i1++) {
                    Map<String, Integer> a = accesses(threads.get(t1).get(i1));
                    for (int t2 = 0; t2 < threads.size(); t2++) {
                        dependent[t1][i1][t2] = new boolean[threads.get(t2).size()];
                        for (int i2 = 0; t2 != t1 && i2 < threads.get(t2).size(); i2++) {
                            dependent[t1][i1][t2][i2] =
                                    conflict(a, accesses(threads.get(t2).get(i2)));
                        }
                    }
                }
            }
            return new Dependencies(dependent);
        }

        /** A common resource, written by one of them at least. */
        private static boolean conflict(Map<String, Integer> a, Map<String, Integer> b) {
            for (Map.Entry<String, Integer> e : a.entrySet()) {
                Integer other = b.get(e.getKey());
                if (other != null && (e.getValue() == 1 || other == 1)) {
                    return true;
                }
            }
            return false;
        }

        boolean between(int t1, int i1, int t2, int i2) {
            return dependent[t1][i1][t2][i2];
        }
    }

    sealed interface Op {}

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

    /** Enters monitor {@code monitor} (a {@code synchronized} block that ends at the matching {@link Exit}). */
    record Enter(int monitor) implements Op {
        @Override
        public String toString() {
            return "E" + monitor;
        }
    }

    record Exit(int monitor) implements Op {
        @Override
        public String toString() {
            return "X" + monitor;
        }
    }

    /** {@code monitor.wait()} gives the monitor back and joins the wait set; {@link Woken} follows it. */
    record WaitOn(int monitor) implements Op {
        @Override
        public String toString() {
            return "W" + monitor;
        }
    }

    /**
     * A timed wait's end by its timeout, or by a notification pending for it (between {@link WaitOn} and
     * {@link Woken}). The thread body cannot see when it happens: its keys leave it out ({@link #traceKey}).
     */
    record TimeOut(int monitor) implements Op {
        @Override
        public String toString() {
            return "T" + monitor;
        }
    }

    /**
     * An untimed wait's spurious wake-up, or its end by a notification pending for it (between {@link WaitOn}
     * and {@link Woken}), like a {@link TimeOut}; once a thread woke spuriously (without a notification) its
     * later untimed waits have no such step (they share one wait site, which wakes spuriously once per thread).
     */
    record Spurious(int monitor) implements Op {
        @Override
        public String toString() {
            return "S" + monitor;
        }
    }

    /** The wait's return: out of the wait set and back in the monitor. */
    record Woken(int monitor) implements Op {
        @Override
        public String toString() {
            return "K" + monitor;
        }
    }

    record Notify(int monitor, boolean all) implements Op {
        @Override
        public String toString() {
            return (all ? "NA" : "N") + monitor;
        }
    }

    record Acquire(int semaphore) implements Op {
        @Override
        public String toString() {
            return "P" + semaphore;
        }
    }

    record Release(int semaphore) implements Op {
        @Override
        public String toString() {
            return "V" + semaphore;
        }
    }

    /** Takes the read-write lock's read ({@code write} false) or write lock. */
    record RwLock(boolean write) implements Op {
        @Override
        public String toString() {
            return write ? "WL" : "RL";
        }
    }

    record RwUnlock(boolean write) implements Op {
        @Override
        public String toString() {
            return write ? "WU" : "RU";
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
        return new SyncRandomProgram(seed, resources, 1, threads);
    }

    /**
     * The second kind: sections on a monitor (with an unguarded wait, a notify or a notifyAll in them), on
     * a semaphore with one or two permits, or under the read or the write lock of a read-write lock, never
     * nested; lost wake-ups and threads left waiting are deadlocks.
     */
    static SyncRandomProgram generateHandoffs(long seed) {
        return generateHandoffs(seed, false);
    }

    /** The second kind, with one wait in three timed ({@code timedWaits}): its time-out is one more step. */
    static SyncRandomProgram generateHandoffs(long seed, boolean timedWaits) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L); // consecutive seeds' first draws are alike
        int threadCount = 2 + random.nextInt(2);
        int resources = 1 + random.nextInt(2);
        int permits = 1 + random.nextInt(2);
        int cap = threadCount == 3 ? 6 : 7;
        if (random.nextInt(4) == 0) {
            return waitSetScenario(seed, random, resources, permits, timedWaits);
        }
        List<List<Op>> threads;
        do {
            threads = new ArrayList<>();
            for (int t = 0; t < threadCount; t++) {
                List<Op> ops;
                do {
                    ops = new ArrayList<>();
                    int blocks = 1 + random.nextInt(2);
                    for (int b = 0; b < blocks; b++) {
                        addBlock(ops, random, resources, timedWaits);
                    }
                } while (ops.size() > cap);
                threads.add(ops);
            }
        } while (interleavings(threads) > MAX_INTERLEAVINGS);
        return new SyncRandomProgram(seed, resources, permits, threads);
    }

    /**
     * Programs with more plain interleavings than this are drawn again: the brute force walks every one of
     * them (three threads of six steps have 17 million), and the suite must stay fast.
     */
    static final long MAX_INTERLEAVINGS = 60_000;

    /** The number of ways to interleave the threads' steps: the multinomial of their lengths. */
    static long interleavings(List<List<Op>> threads) {
        long ways = 1;
        int placed = 0;
        for (List<Op> ops : threads) {
            for (int i = 1; i <= ops.size(); i++) {
                placed++;
                ways = ways * placed / i;
            }
        }
        return ways;
    }

    /** Two threads wait in one monitor and a third notifies it once or twice, or notifies all, with touches around. */
    private static SyncRandomProgram waitSetScenario(
            long seed, Random random, int resources, int permits, boolean timedWaits) {
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            List<Op> ops = new ArrayList<>(List.of(new Enter(0)));
            boolean before = random.nextInt(4) == 0;
            boolean after = random.nextInt(4) == 0;
            if (before) {
                ops.add(touch(random, resources));
            }
            addWait(ops, 0, random, timedWaits);
            if (after) {
                ops.add(touch(random, resources));
            }
            ops.add(new Exit(0));
            threads.add(ops);
        }
        List<Op> notifier = new ArrayList<>(List.of(new Enter(0), new Notify(0, random.nextInt(3) == 0), new Exit(0)));
        if (random.nextBoolean()) {
            notifier.addAll(List.of(new Enter(0), new Notify(0, false), new Exit(0)));
        }
        if (random.nextBoolean()) {
            notifier.add(0, touch(random, resources));
        }
        threads.add(notifier);
        return new SyncRandomProgram(seed, resources, permits, threads);
    }

    /**
     * The third kind: one thread waits twice in a monitor (two sections, unguarded waits, touches around),
     * another notifies it two or three times: with spurious wake-ups, the second wait may wake spuriously only
     * if the first did not.
     */
    static SyncRandomProgram generateRepeatedWaits(long seed) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L);
        int resources = 1 + random.nextInt(2);
        List<Op> waiter = new ArrayList<>();
        for (int section = 0; section < 2; section++) {
            waiter.add(new Enter(0));
            if (random.nextInt(3) == 0) {
                waiter.add(touch(random, resources));
            }
            waiter.addAll(List.of(new WaitOn(0), new Woken(0)));
            if (random.nextInt(3) == 0) {
                waiter.add(touch(random, resources));
            }
            waiter.add(new Exit(0));
        }
        List<Op> notifier = new ArrayList<>();
        int notifies = 2 + random.nextInt(2);
        for (int n = 0; n < notifies; n++) {
            if (random.nextInt(3) == 0) {
                notifier.add(touch(random, resources));
            }
            notifier.addAll(List.of(new Enter(0), new Notify(0, random.nextInt(4) == 0), new Exit(0)));
        }
        return new SyncRandomProgram(seed, resources, 1, List.of(waiter, notifier));
    }

    private static void addBlock(List<Op> ops, Random random, int resources, boolean timedWaits) {
        int kind = Math.max(0, random.nextInt(6) - 1); // a monitor section twice as often as the others
        if (kind == 0) {
            ops.add(touch(random, resources));
            return;
        }
        int which = random.nextInt(4) == 0 ? 1 : 0;
        ops.add(kind == 1 ? new Enter(which) : kind == 2 ? new Acquire(which) : new RwLock(kind == 4));
        if (random.nextBoolean()) {
            ops.add(touch(random, resources));
        }
        if (kind == 1) {
            if (random.nextInt(3) > 0) {
                addWait(ops, which, random, timedWaits);
            }
            if (random.nextInt(3) > 0) {
                ops.add(new Notify(which, random.nextInt(3) == 0));
            }
        }
        ops.add(kind == 1 ? new Exit(which) : kind == 2 ? new Release(which) : new RwUnlock(kind == 4));
    }

    /** An untimed wait, or (one in three, when {@code timed}) a timed one. */
    private static void addWait(List<Op> ops, int monitor, Random random, boolean timed) {
        ops.add(new WaitOn(monitor));
        if (random.nextInt(3) == 0 && timed) {
            ops.add(new TimeOut(monitor));
        }
        ops.add(new Woken(monitor));
    }

    private static Touch touch(Random random, int resources) {
        List<int[]> accesses = new ArrayList<>();
        int count = random.nextInt(4) == 0 ? 2 : 1;
        for (int a = 0; a < count; a++) {
            accesses.add(new int[] {random.nextInt(resources), random.nextInt(2)});
        }
        return new Touch(accesses);
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

    /** The same program whose untimed waits may wake spuriously: a {@link Spurious} step after each. */
    SyncRandomProgram withSpuriousWakeups() {
        List<List<Op>> spurious = new ArrayList<>();
        for (List<Op> ops : threads) {
            List<Op> copy = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                copy.add(ops.get(i));
                if (ops.get(i) instanceof WaitOn w && !(ops.get(i + 1) instanceof TimeOut)) {
                    copy.add(new Spurious(w.monitor()));
                }
            }
            spurious.add(copy);
        }
        return new SyncRandomProgram(seed, resources, permits, spurious);
    }

    /** Whether the program has a step that is an untimed wait's spurious wake-up. */
    boolean spuriousWakeups() {
        return threads.stream().flatMap(List::stream).anyMatch(Spurious.class::isInstance);
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
        final SyncProgramMachine machine = new SyncProgramMachine(permits);

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
            run(thread, 0);
        }

        /**
         * Runs the thread's ops from {@code from} to its end or to the {@link Exit} of the monitor it is in
         * (whose index it returns). Each op is logged right after it ran, while the thread still runs alone;
         * a wait is logged just before it, since it returns only after others ran: no op of another thread
         * that depends on it can run in between, as the thread holds the monitor until the wait runs.
         */
        private int run(int thread, int from) throws InterruptedException {
            List<Op> ops = threads.get(thread);
            int i = from;
            while (i < ops.size()) {
                Op op = ops.get(i);
                if (op instanceof Exit) {
                    return i;
                }
                if (op instanceof Enter e) {
                    int enter = i;
                    int[] exit = new int[1];
                    machine.synchronizedOn(e.monitor(), () -> {
                        apply(thread, enter);
                        exit[0] = run(thread, enter + 1);
                    });
                    apply(thread, exit[0]);
                    i = exit[0] + 1;
                    continue;
                }
                if (op instanceof WaitOn w) {
                    boolean timed = ops.get(i + 1) instanceof TimeOut;
                    boolean leaves = timed || ops.get(i + 1) instanceof Spurious;
                    apply(thread, i);
                    if (timed) {
                        machine.waitOnTimed(w.monitor());
                    } else {
                        machine.waitOn(w.monitor());
                    }
                    if (leaves) {
                        apply(thread, i + 1); // whether it ran as a step: its key counts it as run with the wake-up
                    }
                    i += leaves ? 2 : 1;
                    apply(thread, i);
                    i++;
                    continue;
                }
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
                } else if (op instanceof Signal sig) {
                    machine.signal(sig.latch());
                } else if (op instanceof Await w) {
                    machine.await(w.latch());
                } else if (op instanceof Notify n) {
                    machine.notifyOn(n.monitor(), n.all());
                } else if (op instanceof Acquire a) {
                    machine.acquire(a.semaphore());
                } else if (op instanceof Release r) {
                    machine.release(r.semaphore());
                } else if (op instanceof RwLock rw) {
                    if (rw.write()) {
                        machine.writeLock();
                    } else {
                        machine.readLock();
                    }
                } else if (op instanceof RwUnlock rw) {
                    if (rw.write()) {
                        machine.writeUnlock();
                    } else {
                        machine.readUnlock();
                    }
                }
                apply(thread, i);
                i++;
            }
            return i;
        }

        String outcome(boolean deadlocked) {
            return Arrays.toString(values) + Arrays.toString(registers) + (deadlocked ? " deadlock" : "");
        }
    }

    /** Whether two ops of different threads are dependent: a common resource, written by one of them at least. */
    boolean conflict(int t1, int i1, int t2, int i2) {
        return dependencies.between(t1, i1, t2, i2);
    }

    /**
     * The resources an op reads (0) or writes (1), as the engine names them: a monitor and its wait set
     * are two (a notify touches only the wait set, entering and leaving only the monitor, a wait and its
     * wake-up both); read locks read the read-write lock, everything else writes its object.
     */
    private static Map<String, Integer> accesses(Op op) {
        Map<String, Integer> m = new HashMap<>();
        if (op instanceof Touch touch) {
            for (int[] a : touch.accesses()) {
                m.merge("v" + a[0], a[1], Math::max);
            }
        } else if (op instanceof Lock l) {
            m.put("lock" + l.lock(), 1);
        } else if (op instanceof Unlock u) {
            m.put("lock" + u.lock(), 1);
        } else if (op instanceof Signal sig) {
            m.put("latch" + sig.latch(), 1);
        } else if (op instanceof Await w) {
            m.put("latch" + w.latch(), 0);
        } else if (op instanceof Enter e) {
            m.put("monitor" + e.monitor(), 1);
        } else if (op instanceof Exit x) {
            m.put("monitor" + x.monitor(), 1);
        } else if (op instanceof WaitOn w) {
            m.put("monitor" + w.monitor(), 1);
            m.put("waitset" + w.monitor(), 1);
        } else if (op instanceof Woken k) {
            m.put("monitor" + k.monitor(), 1);
            m.put("waitset" + k.monitor(), 1);
        } else if (op instanceof TimeOut o) {
            m.put("monitor" + o.monitor(), 1); // it waits for the monitor to be free
            m.put("waitset" + o.monitor(), 1);
        } else if (op instanceof Spurious o) {
            m.put("monitor" + o.monitor(), 1);
            m.put("waitset" + o.monitor(), 1);
        } else if (op instanceof Notify n) {
            m.put("waitset" + n.monitor(), 1);
        } else if (op instanceof Acquire a) {
            m.put("semaphore" + a.semaphore(), 1);
        } else if (op instanceof Release r) {
            m.put("semaphore" + r.semaphore(), 1);
        } else if (op instanceof RwLock rw) {
            m.put("rw", rw.write() ? 1 : 0);
        } else if (op instanceof RwUnlock rw) {
            m.put("rw", rw.write() ? 1 : 0);
        }
        return m;
    }

    /**
     * What the thread bodies can tell of the trace of a (possibly partial) execution: which ops ran, and
     * the order of every dependent pair that did, leaving out the time-outs (which ran if their wait's
     * {@link Woken} did).
     */
    String traceKey(List<int[]> order) {
        return traceKey(order, false);
    }

    /** The trace itself, time-outs included. */
    private String traceKey(List<int[]> order, boolean withTimeOuts) {
        int[][] position = new int[threads.size()][];
        for (int t = 0; t < threads.size(); t++) {
            position[t] = new int[threads.get(t).size()];
            Arrays.fill(position[t], -1);
        }
        for (int p = 0; p < order.size(); p++) {
            // a skipped spurious wake-up (the thread's site had woken spuriously already) ran as no step
            position[order.get(p)[0]][order.get(p)[1]] = order.get(p).length > 2 ? Integer.MAX_VALUE : p;
        }
        if (!withTimeOuts) {
            for (int t = 0; t < threads.size(); t++) {
                for (int i = 0; i < position[t].length; i++) {
                    if (threads.get(t).get(i) instanceof TimeOut
                            || threads.get(t).get(i) instanceof Spurious) {
                        position[t][i] = position[t][i + 1] >= 0 ? Integer.MAX_VALUE : -1;
                    }
                }
            }
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
                        if (conflict(t1, i1, t2, i2)
                                && position[t1][i1] >= 0
                                && position[t2][i2] >= 0
                                && position[t1][i1] < Integer.MAX_VALUE
                                && position[t2][i2] < Integer.MAX_VALUE) {
                            key.append(position[t1][i1] < position[t2][i2] ? '<' : '>');
                        }
                    }
                }
            }
        }
        return key.toString();
    }

    /** Every trace of every feasible maximal execution (as the bodies can tell it, {@link #traceKey}), with its outcome. */
    Map<String, String> bruteForce() {
        Map<String, String> traces = new HashMap<>();
        dfs(new int[threads.size()], new Model(permits), new ArrayList<>(), traces, new HashSet<>(), new HashMap<>());
        return traces;
    }

    /** For each trace the bodies can tell, one order of ops that has it ({@code t:op} each): to name what a run missed. */
    Map<String, String> witnesses() {
        Map<String, String> witnesses = new HashMap<>();
        dfs(
                new int[threads.size()],
                new Model(permits),
                new ArrayList<>(),
                new HashMap<>(),
                new HashSet<>(),
                witnesses);
        return witnesses;
    }

    /** How many Mazurkiewicz traces the feasible maximal executions have, time-outs included. */
    int traceCount() {
        Set<String> traces = new HashSet<>();
        dfs(new int[threads.size()], new Model(permits), new ArrayList<>(), new HashMap<>(), traces, new HashMap<>());
        return traces.size();
    }

    /** The synchronization state of the brute force: who holds what, who waits, which notifications are pending. */
    private static final class Model {
        int[] owner = {-1, -1};
        int[] latch = {1, 1};
        int[] monitorOwner = {-1, -1};
        List<List<Integer>> waiting = List.of(new ArrayList<>(), new ArrayList<>());
        List<Set<Integer>> woken = List.of(new HashSet<>(), new HashSet<>());
        /** Per monitor, for each pending notify (oldest first), the threads it may still wake. */
        List<List<Set<Integer>>> pending = List.of(new ArrayList<>(), new ArrayList<>());

        int[] permits;
        int writer = -1;
        List<Integer> readers = new ArrayList<>();
        /** Per thread, whether it woke spuriously already (its untimed waits share one site). */
        boolean[] spuriousUsed = new boolean[3];

        Model(int permits) {
            this.permits = new int[] {permits, permits};
        }

        Model copy() {
            Model m = new Model(0);
            m.owner = owner.clone();
            m.latch = latch.clone();
            m.monitorOwner = monitorOwner.clone();
            m.waiting = List.of(new ArrayList<>(waiting.get(0)), new ArrayList<>(waiting.get(1)));
            m.woken = List.of(new HashSet<>(woken.get(0)), new HashSet<>(woken.get(1)));
            m.pending = List.of(copyOf(pending.get(0)), copyOf(pending.get(1)));
            m.permits = permits.clone();
            m.writer = writer;
            m.readers = new ArrayList<>(readers);
            m.spuriousUsed = spuriousUsed.clone();
            return m;
        }

        private static List<Set<Integer>> copyOf(List<Set<Integer>> sets) {
            List<Set<Integer>> copy = new ArrayList<>();
            sets.forEach(n -> copy.add(new HashSet<>(n)));
            return copy;
        }

        boolean enabled(int t, Op op) {
            if (op instanceof Lock l) {
                return owner[l.lock()] < 0;
            }
            if (op instanceof Await w) {
                return latch[w.latch()] == 0;
            }
            if (op instanceof Enter e) {
                return monitorOwner[e.monitor()] < 0;
            }
            if (op instanceof Woken k) {
                int m = k.monitor();
                return monitorOwner[m] < 0
                        && (woken.get(m).contains(t) || pending.get(m).stream().anyMatch(n -> n.contains(t)));
            }
            if (op instanceof TimeOut o) {
                return monitorOwner[o.monitor()] < 0;
            }
            if (op instanceof Spurious o) {
                return monitorOwner[o.monitor()] < 0;
            }
            if (op instanceof Acquire a) {
                return permits[a.semaphore()] > 0;
            }
            if (op instanceof RwLock rw) {
                return writer < 0 && (!rw.write() || readers.isEmpty());
            }
            return true;
        }

        /** Thread t leaves monitor m's wait set, taking the oldest notification pending for it, if any. */
        private void leave(int t, int m) {
            if (!woken.get(m).remove(t)) {
                List<Set<Integer>> ns = pending.get(m);
                for (int i = 0; i < ns.size(); i++) {
                    if (ns.get(i).contains(t)) {
                        ns.remove(i);
                        break;
                    }
                }
            }
            waiting.get(m).remove(Integer.valueOf(t));
            pending.get(m).forEach(n -> n.remove(t));
            pending.get(m).removeIf(Set::isEmpty);
        }

        void apply(int t, Op op) {
            if (op instanceof Lock l) {
                owner[l.lock()] = t;
            } else if (op instanceof Unlock u) {
                owner[u.lock()] = -1;
            } else if (op instanceof Signal sig) {
                latch[sig.latch()] = 0;
            } else if (op instanceof Enter e) {
                monitorOwner[e.monitor()] = t;
            } else if (op instanceof Exit x) {
                monitorOwner[x.monitor()] = -1;
            } else if (op instanceof WaitOn w) {
                monitorOwner[w.monitor()] = -1;
                waiting.get(w.monitor()).add(t);
            } else if (op instanceof TimeOut o) {
                leave(t, o.monitor());
                woken.get(o.monitor()).add(t);
            } else if (op instanceof Spurious o) {
                int m = o.monitor();
                spuriousUsed[t] |=
                        !woken.get(m).contains(t) && pending.get(m).stream().noneMatch(n -> n.contains(t));
                leave(t, m);
                woken.get(m).add(t);
            } else if (op instanceof Woken k) {
                leave(t, k.monitor());
                monitorOwner[k.monitor()] = t;
            } else if (op instanceof Notify n) {
                int m = n.monitor();
                if (n.all()) {
                    woken.get(m).addAll(waiting.get(m));
                    waiting.get(m).clear();
                    pending.get(m).clear();
                } else if (waiting.get(m).size() > pending.get(m).size()) {
                    pending.get(m).add(new HashSet<>(waiting.get(m)));
                }
            } else if (op instanceof Acquire a) {
                permits[a.semaphore()]--;
            } else if (op instanceof Release r) {
                permits[r.semaphore()]++;
            } else if (op instanceof RwLock rw) {
                if (rw.write()) {
                    writer = t;
                } else {
                    readers.add(t);
                }
            } else if (op instanceof RwUnlock rw) {
                if (rw.write()) {
                    writer = -1;
                } else {
                    readers.remove(Integer.valueOf(t));
                }
            }
        }
    }

    private void dfs(
            int[] next,
            Model model,
            List<int[]> order,
            Map<String, String> traces,
            Set<String> full,
            Map<String, String> witnesses) {
        boolean any = false;
        boolean unfinished = false;
        if (!lockCycle(next, model.owner)) {
            for (int t = 0; t < threads.size(); t++) {
                if (next[t] >= threads.get(t).size()) {
                    continue;
                }
                unfinished = true;
                Op op = threads.get(t).get(next[t]);
                if (!model.enabled(t, op)) {
                    continue;
                }
                any = true;
                Model after = model.copy();
                after.apply(t, op);
                order.add(new int[] {t, next[t]});
                next[t]++;
                boolean skip = next[t] < threads.get(t).size()
                        && threads.get(t).get(next[t]) instanceof Spurious
                        && after.spuriousUsed[t];
                if (skip) { // its wait has no spurious wake-up left: no step
                    order.add(new int[] {t, next[t], 1});
                    next[t]++;
                }
                dfs(next, after, order, traces, full, witnesses);
                if (skip) {
                    next[t]--;
                    order.remove(order.size() - 1);
                }
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
            full.add(traceKey(order, true));
            StringBuilder witness = new StringBuilder();
            for (int[] step : order) {
                witness.append(witness.length() == 0 ? "" : " ")
                        .append(step[0])
                        .append(':')
                        .append(threads.get(step[0]).get(step[1]))
                        .append(step.length > 2 ? "(no step)" : "");
            }
            witnesses.putIfAbsent(traceKey(order), witness.toString());
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

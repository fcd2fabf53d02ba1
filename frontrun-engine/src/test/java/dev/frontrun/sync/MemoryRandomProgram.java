package dev.frontrun.sync;

import dev.frontrun.sync.fixtures.Box;
import dev.frontrun.sync.fixtures.MemoryCells;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A small random program over real instrumented memory: threads read and write two shared fields, make
 * boxes of their own, read and write their current box, publish it through a shared slot and take
 * whatever box the slot holds (then reading and writing another thread's box). With a brute-force
 * enumerator of every interleaving, simulated with the objects' true identities, and the Mazurkiewicz trace
 * of each: per-object resource names must make exactly the same accesses conflict as identity does.
 */
record MemoryRandomProgram(long seed, List<List<Op>> threads) {

    enum Op {
        /** a new box, the thread's current one (no step) */
        NEW("N"),
        READ_A("Ra"),
        WRITE_A("Wa"),
        READ_B("Rb"),
        WRITE_B("Wb"),
        READ_BOX("r"),
        WRITE_BOX("w"),
        /** the current box into the slot */
        PUBLISH("P"),
        /** the slot's box, if any, becomes the current one */
        TAKE("T");

        private final String text;

        Op(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private static final Op[] AFTER_NEW = {
        Op.READ_A,
        Op.WRITE_A,
        Op.READ_B,
        Op.WRITE_B,
        Op.READ_BOX,
        Op.WRITE_BOX,
        Op.WRITE_BOX,
        Op.PUBLISH,
        Op.PUBLISH,
        Op.TAKE,
        Op.TAKE,
        Op.NEW
    };

    static MemoryRandomProgram generate(long seed) {
        Random random = new Random(seed);
        int threadCount = 2 + random.nextInt(2);
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            List<Op> ops = new ArrayList<>();
            ops.add(Op.NEW);
            int more = 1 + random.nextInt(threadCount == 2 ? 3 : 2);
            for (int i = 0; i < more; i++) {
                ops.add(AFTER_NEW[random.nextInt(AFTER_NEW.length)]);
            }
            threads.add(ops);
        }
        if (random.nextBoolean()) { // a hand-over: one thread publishes its box, another takes it and uses it
            int publisher = random.nextInt(threadCount);
            int taker = (publisher + 1 + random.nextInt(threadCount - 1)) % threadCount;
            List<Op> from = threads.get(publisher);
            from.add(1 + random.nextInt(from.size()), Op.PUBLISH);
            List<Op> to = threads.get(taker);
            int at = 1 + random.nextInt(to.size());
            to.add(at, random.nextBoolean() ? Op.WRITE_BOX : Op.READ_BOX);
            to.add(at, Op.TAKE);
        }
        return new MemoryRandomProgram(seed, threads);
    }

    int threadCount() {
        return threads.size();
    }

    /** An object's identity in the simulation, and its name in the real run: the creating thread and its count. */
    record BoxId(int thread, int index) {}

    /** One run's state, simulated or real: what each thread holds and read, and what it did in which order. */
    final class Run {
        final int[] registers = new int[threads.size()];
        final int[] next = new int[threads.size()];
        final int[] created = new int[threads.size()];
        final BoxId[] current = new BoxId[threads.size()];
        final List<String> order = new ArrayList<>();
        /** per executed op, in order: the resource it touched (null: no step) and whether it wrote */
        final List<String[]> touched = new ArrayList<>();
        // the simulation's memory
        final int[] fields = new int[2];
        BoxId slot;
        final Map<BoxId, Integer> boxes = new HashMap<>();
        // the real run's memory and its boxes' identities
        final MemoryCells cells = new MemoryCells();
        final Map<BoxId, Box> real = new HashMap<>();
        final Map<Box, BoxId> ids = new IdentityHashMap<>();

        /** Runs (really, on the instrumented fixtures) op {@code next[t]} of thread t. */
        void runReally(int t) {
            Op op = threads.get(t).get(next[t]);
            int value = (t + 1) * 1_000 + next[t] * 100 + registers[t];
            switch (op) {
                case NEW -> {
                    Box box = new Box();
                    BoxId id = new BoxId(t, created[t]++);
                    real.put(id, box);
                    ids.put(box, id);
                    current[t] = id;
                }
                case READ_A -> registers[t] = registers[t] * 31 + cells.read(0) + 1;
                case WRITE_A -> cells.write(0, value);
                case READ_B -> registers[t] = registers[t] * 31 + cells.read(1) + 1;
                case WRITE_B -> cells.write(1, value);
                case READ_BOX ->
                    registers[t] = registers[t] * 31 + real.get(current[t]).get() + 1;
                case WRITE_BOX -> real.get(current[t]).set(value);
                case PUBLISH -> cells.publish(real.get(current[t]));
                case TAKE -> {
                    Box box = cells.take();
                    if (box != null) {
                        current[t] = ids.get(box);
                    }
                }
            }
            order.add(t + ":" + next[t]);
            next[t]++;
        }

        /** Simulates op {@code next[t]} of thread t with identities, recording what it touched. */
        void simulate(int t) {
            Op op = threads.get(t).get(next[t]);
            int value = (t + 1) * 1_000 + next[t] * 100 + registers[t];
            String[] touch = switch (op) {
                case NEW -> {
                    BoxId id = new BoxId(t, created[t]++);
                    boxes.put(id, 0);
                    current[t] = id;
                    yield null;
                }
                case READ_A, READ_B -> {
                    registers[t] = registers[t] * 31 + fields[op == Op.READ_A ? 0 : 1] + 1;
                    yield new String[] {op == Op.READ_A ? "a" : "b", "r"};
                }
                case WRITE_A, WRITE_B -> {
                    fields[op == Op.WRITE_A ? 0 : 1] = value;
                    yield new String[] {op == Op.WRITE_A ? "a" : "b", "w"};
                }
                case READ_BOX -> {
                    registers[t] = registers[t] * 31 + boxes.get(current[t]) + 1;
                    yield new String[] {current[t].toString(), "r"};
                }
                case WRITE_BOX -> {
                    boxes.put(current[t], value);
                    yield new String[] {current[t].toString(), "w"};
                }
                case PUBLISH -> {
                    slot = current[t];
                    yield new String[] {"slot", "w"};
                }
                case TAKE -> {
                    if (slot != null) {
                        current[t] = slot;
                    }
                    yield new String[] {"slot", "r"};
                }
            };
            touched.add(touch);
            order.add(t + ":" + next[t]);
            next[t]++;
        }

        String outcome() {
            StringBuilder sb = new StringBuilder(Arrays.toString(registers));
            for (int t = 0; t < threads.size(); t++) {
                for (int i = 0; i < created[t]; i++) {
                    BoxId id = new BoxId(t, i);
                    sb.append(' ')
                            .append(
                                    real.isEmpty()
                                            ? boxes.get(id)
                                            : Integer.valueOf(real.get(id).get()));
                }
            }
            return sb.toString();
        }
    }

    /** Every interleaving's trace (the order of every conflicting pair of steps, by true identity) and outcome. */
    Map<String, String> bruteForce() {
        Map<String, String> traces = new HashMap<>();
        dfs(new ArrayList<>(), traces);
        return traces;
    }

    private void dfs(List<Integer> schedule, Map<String, String> traces) {
        boolean any = false;
        Run probe = replaySimulated(schedule);
        for (int t = 0; t < threads.size(); t++) {
            if (probe.next[t] < threads.get(t).size()) {
                any = true;
                schedule.add(t);
                dfs(schedule, traces);
                schedule.remove(schedule.size() - 1);
            }
        }
        if (!any) {
            traces.put(traceKey(probe), probe.outcome());
        }
    }

    /** Whether in some interleaving a thread reads or writes a box another thread made (a hand-over that matters). */
    boolean touchesAnothersBox() {
        return anothersBox(new ArrayList<>());
    }

    private boolean anothersBox(List<Integer> schedule) {
        Run run = replaySimulated(schedule);
        for (int p = 0; p < run.order.size(); p++) {
            String[] touch = run.touched.get(p);
            int thread = schedule.get(p);
            if (touch != null
                    && touch[0].startsWith("BoxId[thread=")
                    && !touch[0].startsWith("BoxId[thread=" + thread + ",")) {
                return true;
            }
        }
        for (int t = 0; t < threads.size(); t++) {
            if (run.next[t] < threads.get(t).size()) {
                schedule.add(t);
                boolean found = anothersBox(schedule);
                schedule.remove(schedule.size() - 1);
                if (found) {
                    return true;
                }
            }
        }
        return false;
    }

    private Run replaySimulated(List<Integer> schedule) {
        Run run = new Run();
        for (int t : schedule) {
            run.simulate(t);
        }
        return run;
    }

    /** The trace of a simulated run: for every pair of steps of different threads, whether and how they are ordered. */
    String traceKey(Run run) {
        StringBuilder key = new StringBuilder();
        List<String> order = run.order;
        for (int p = 0; p < order.size(); p++) {
            for (int q = p + 1; q < order.size(); q++) {
                String[] x = run.touched.get(p);
                String[] y = run.touched.get(q);
                String tp = order.get(p).split(":")[0];
                String tq = order.get(q).split(":")[0];
                if (x != null
                        && y != null
                        && !tp.equals(tq)
                        && x[0].equals(y[0])
                        && (x[1].equals("w") || y[1].equals("w"))) {
                    key.append(order.get(p)).append('<').append(order.get(q)).append(' ');
                }
            }
        }
        return sortedPairs(key.toString());
    }

    /** The key of a real run's order: simulated again along the same order, so its identities are true ones. */
    String traceKeyOf(List<String> order) {
        List<Integer> schedule = new ArrayList<>();
        for (String entry : order) {
            schedule.add(Integer.parseInt(entry.split(":")[0]));
        }
        return traceKey(replaySimulated(schedule));
    }

    private static String sortedPairs(String pairs) {
        List<String> list = new ArrayList<>(
                List.of(pairs.trim().isEmpty() ? new String[0] : pairs.trim().split(" ")));
        Collections.sort(list);
        return String.join(" ", list);
    }

    @Override
    public String toString() {
        return "memory program(seed=" + seed + ") " + threads;
    }
}

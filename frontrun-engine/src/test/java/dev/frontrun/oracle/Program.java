package dev.frontrun.oracle;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A generated program: two or three threads over {@link OracleSchema}; the seed names it for reruns.
 *
 * @param twins whether threads 0 and 1 run one thread program and are explored as identical threads ({@code
 *     threads(2, name, body)}): outcomes are then compared up to swapping the two ({@link Outcome#key(boolean)})
 */
record Program(long seed, List<ThreadProgram> threads, boolean twins) {

    Program {
        threads = List.copyOf(threads);
        if (twins && (threads.size() < 2 || !threads.get(0).equals(threads.get(1)))) {
            throw new IllegalArgumentException("twins run one thread program: " + threads);
        }
    }

    Program(long seed, List<ThreadProgram> threads) {
        this(seed, threads, false);
    }

    int threadCount() {
        return threads.size();
    }

    /** Every category the program uses. */
    Set<Category> categories() {
        Set<Category> out = EnumSet.noneOf(Category.class);
        threads.forEach(t -> out.addAll(t.categories()));
        if (threads.size() > 2) {
            out.add(Category.THREE_THREADS);
        }
        return out;
    }

    /** Interleavings of the steps when nothing fails and nothing waits: the multinomial of the threads' step counts. */
    long plainInterleavings() {
        long result = 1;
        int total = 0;
        for (ThreadProgram t : threads) {
            for (int i = 1; i <= t.plainSteps(); i++) {
                total++;
                result = result * total / i;
            }
        }
        return result;
    }

    /** Statements over all threads (the size a shrinker reduces). */
    int size() {
        return threads.stream().mapToInt(t -> t.ops().size()).sum();
    }

    /**
     * Smaller programs: one statement dropped, or a whole thread's transaction turned into autocommit; twins shrink
     * together, and stay twins.
     */
    List<Program> shrinks() {
        List<Program> out = new ArrayList<>();
        for (int t = twins ? 1 : 0; t < threads.size(); t++) {
            ThreadProgram thread = threads.get(t);
            for (int i = 0; i < thread.ops().size(); i++) {
                if (thread.ops().size() > 1) {
                    out.add(with(t, thread.without(i)));
                } else if (threads.size() > 2 && !(twins && t <= 1)) {
                    List<ThreadProgram> fewer = new ArrayList<>(threads);
                    fewer.remove(t);
                    out.add(new Program(seed, fewer, twins));
                }
            }
            if (thread.transactional()
                    && thread.ops().stream().noneMatch(op -> op.kind().needsTransaction())) {
                out.add(with(t, new ThreadProgram(ThreadProgram.Mode.AUTOCOMMIT, false, thread.ops(), -1)));
            }
        }
        return out;
    }

    private Program with(int index, ThreadProgram thread) {
        List<ThreadProgram> copy = new ArrayList<>(threads);
        copy.set(index, thread);
        if (twins && index <= 1) {
            copy.set(1 - index, thread);
        }
        return new Program(seed, copy, twins);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("program(seed=" + seed + ")\n");
        for (int t = 0; t < threads.size(); t++) {
            out.append("  t")
                    .append(t)
                    .append(twins && t <= 1 ? ", a twin" : "")
                    .append(" (")
                    .append(threads.get(t).mode())
                    .append("):\n");
            for (String line : threads.get(t).toString().split("\n")) {
                out.append("    ").append(line).append('\n');
            }
        }
        return out.toString();
    }
}

package dev.frontrun.oracle;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded, deterministic programs over {@link OracleSchema}, using only the {@link Category
 * categories} switched on. Programs are small so that brute force stays cheap: mostly two threads of
 * one to three statements, one in five of three threads of one or two, and none whose step
 * interleavings exceed a cap. Keys are drawn from two "hot" rows per program so threads collide, and
 * soft deletes, revivals and renames favour rows 3 and 4, the deleted and the live row named 'c'.
 */
final class ProgramGenerator {

    private static final int[] NEW_KEYS = {5, 5, 5, 6, 1};
    private static final int[] THRESHOLDS = {15, 25, 35};
    private static final String[] SHARED_NAMES = {"x", "x", "a", "c"};

    private final Set<Category> enabled;
    private final long maxInterleavings;
    private final List<Op.Kind> kinds = new ArrayList<>();
    private final List<ThreadProgram.Mode> modes = new ArrayList<>();

    ProgramGenerator(Set<Category> enabled, long maxInterleavings) {
        this.enabled = EnumSet.copyOf(enabled);
        this.maxInterleavings = maxInterleavings;
        for (Op.Kind kind : Op.Kind.values()) {
            if (kind.generated() && enabled.contains(kind.category)) {
                kinds.add(kind);
            }
        }
        boolean autocommitStatements = kinds.stream().anyMatch(k -> !k.needsTransaction());
        for (ThreadProgram.Mode mode : ThreadProgram.Mode.values()) {
            if (enabled.contains(mode.category) && (mode != ThreadProgram.Mode.AUTOCOMMIT || autocommitStatements)) {
                modes.add(mode);
            }
        }
        if (modes.isEmpty() || kinds.isEmpty()) {
            throw new IllegalArgumentException("categories " + enabled + " allow no statement in any transaction mode");
        }
    }

    Program generate(long seed) {
        return generate(seed, false);
    }

    /**
     * A program whose threads 0 and 1 are twins: one thread program, the same statements with the same values (no value
     * or name drawn from the thread's index), beside a third thread of its own when three threads are switched on.
     */
    Program generateTwins(long seed) {
        return generate(seed, true);
    }

    private Program generate(long seed, boolean twins) {
        Random random = new Random(seed);
        while (true) {
            Program program = attempt(seed, random, twins);
            if (program.plainInterleavings() <= maxInterleavings) {
                return program;
            }
        }
    }

    private Program attempt(long seed, Random random, boolean twins) {
        int threadCount = enabled.contains(Category.THREE_THREADS) && random.nextInt(5) == 0 ? 3 : 2;
        int[] hot = {1 + random.nextInt(4), 0};
        hot[1] = 1 + (hot[0] + random.nextInt(3)) % 4; // another existing row
        List<ThreadProgram> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            threads.add(twins && t == 1 ? threads.get(0) : thread(random, t, threadCount, hot));
        }
        return new Program(seed, threads, twins);
    }

    private ThreadProgram thread(Random random, int t, int threadCount, int[] hot) {
        ThreadProgram.Mode mode = modes.get(random.nextInt(modes.size()));
        boolean transactional = mode != ThreadProgram.Mode.AUTOCOMMIT;
        List<Op.Kind> allowed = kinds.stream()
                .filter(k -> transactional || !k.needsTransaction())
                .toList();
        int count = 1 + random.nextInt(threadCount == 3 ? 2 : 3);
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Op.Kind kind = allowed.get(random.nextInt(allowed.size()));
            List<Object> args = new ArrayList<>();
            for (Op.Role role : kind.roles) {
                args.add(
                        switch (role) {
                            case KEY -> random.nextInt(8) == 0 ? 5 : hot[random.nextInt(2)];
                            case NAMED_KEY ->
                                random.nextBoolean()
                                        ? 3 + random.nextInt(2)
                                        : hot[random.nextInt(2)]; // rows 3, 4 share 'c'
                            case NEW_KEY -> NEW_KEYS[random.nextInt(NEW_KEYS.length)];
                            case VALUE -> 100 * (t + 1) + i + 1;
                            case THRESHOLD -> THRESHOLDS[random.nextInt(THRESHOLDS.length)];
                            case NAME -> "t" + t + "s" + (i + 1);
                            case SHARED_NAME -> SHARED_NAMES[random.nextInt(SHARED_NAMES.length)];
                        });
            }
            ops.add(new Op(kind, args));
        }
        boolean jdbc = transactional && enabled.contains(Category.JDBC_TRANSACTIONS) && random.nextBoolean();
        int savepoint = transactional && enabled.contains(Category.SAVEPOINT) && count >= 2 && random.nextInt(3) == 0
                ? 1 + random.nextInt(count - 1)
                : -1;
        return new ThreadProgram(mode, jdbc, ops, savepoint);
    }
}

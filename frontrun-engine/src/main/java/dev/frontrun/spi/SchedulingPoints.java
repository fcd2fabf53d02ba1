package dev.frontrun.spi;

import dev.frontrun.Step;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The one entry point that turns "this thread is about to touch shared state" into a scheduling point.
 * Every source uses it: explicit {@code Frontrun.access}, the JDBC proxy, Spring's transaction hooks,
 * native I/O. Outside an exploration every method is a cheap no-op: one
 * {@code instanceof} check on the current thread.
 */
public final class SchedulingPoints {

    /**
     * Thrown when Frontrun cannot observe what it must to give a verdict, so the exploration ends in ERROR.
     * A source of scheduling points throws it inside an explored thread (a connection whose database
     * backend it cannot find): the exploration ends with {@code ERROR} naming the cause, never with a race found in the application.
     */
    public static final class EnvironmentError extends IllegalStateException {
        public EnvironmentError(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * What unwinds an explored thread whose execution is over, thrown out of its next scheduling point.
     * The execution ends when another thread failed, or a deadlock or a time limit was found. It is an {@link Error}, as {@code ThreadDeath} was, so that application
     * code catching {@code Exception} lets it through. Only the engine throws it; integrations keep it away from the
     * application's error handling, which would log Frontrun's control flow as the application's error ({@link #isAbort}).
     */
    public abstract static class Abort extends Error {
        protected Abort(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Whether {@code thrown} is, or was caused by, the {@link Abort} that unwinds an explored thread. A framework that
     * wraps what a handler threw (Spring MVC wraps an {@code Error} into a {@code ServletException}) must let it go on
     * unwinding, never hand it to the application's exception handlers.
     */
    public static boolean isAbort(Throwable thrown) {
        return abortIn(thrown).isPresent();
    }

    /** The {@link Abort} on {@code thrown}'s cause chain, if there is one: what to rethrow to unwind on. */
    public static Optional<Abort> abortIn(Throwable thrown) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof Abort abort) {
                return Optional.of(abort);
            }
        }
        return Optional.empty();
    }

    /**
     * A thread run by Frontrun's scheduler, as sources of scheduling points see it. Implemented by
     * the engine's worker threads; sources only ever reach it through the static methods here.
     */
    public interface Participant {

        /** Index of this thread in its exploration, in {@code .thread(...)} order. */
        int threadIndex();

        /** The name the user gave this thread. */
        String threadName();

        /** The execution this thread currently runs in, or null between executions. */
        ExecutionContext execution();

        /** Whether scheduling points currently park (false while an aborted execution unwinds). */
        boolean schedulingPointsActive();

        /** Parks at a scheduling point announcing {@code next}; returns when the scheduler runs it. */
        void reachSchedulingPoint(Step next);

        /** Tells the scheduler what this thread's last step did beyond what it announced: see {@link #alsoDid}. */
        void lastStepAlsoDid(Step effect);

        /** Whether this thread's execution is over and the thread is being unwound: see {@link #unwinding}. */
        default boolean unwinding() {
            return false;
        }
    }

    /**
     * A thread running the explored work plainly, to measure what it costs without Frontrun.
     * Used by {@code Exploration.baseline}: sources of scheduling points stay out of its way entirely (the JDBC proxy hands
     * out the real connections), so that the measure has none of Frontrun's cost in it.
     */
    public interface Bystander {}

    private SchedulingPoints() {}

    /** Whether the calling thread runs the explored work plainly, where Frontrun must stay out of the way entirely. */
    public static boolean bystander() {
        return Thread.currentThread() instanceof Bystander;
    }

    /** Whether the calling thread is an explored thread whose scheduling points are live. */
    public static boolean active() {
        return Thread.currentThread() instanceof Participant p && p.schedulingPointsActive();
    }

    /**
     * Whether the calling thread is being unwound because its execution is over: its next step would throw.
     * An execution ends at a finding or a time-out. A source of scheduling points lets the thread's own cleanup go through
     * for real instead (a rollback: thrown there, the application's transaction code would log the error as a failed
     * rollback, and the transaction's locks would wait for the pool to reset the connection).
     */
    public static boolean unwinding() {
        return Thread.currentThread() instanceof Participant p && p.unwinding();
    }

    /**
     * Announces the calling thread's next step and waits until the scheduler lets it run.
     * May throw the engine's execution-aborted {@link Error} when the execution is being torn
     * down; let it propagate.
     */
    public static void step(Step next) {
        if (Thread.currentThread() instanceof Participant p && p.schedulingPointsActive()) {
            p.reachSchedulingPoint(next);
        }
    }

    /**
     * Tells the scheduler what the calling thread's last step did beyond what it announced, learnt only once it ran.
     * For example, a statement that fails inside a transaction makes PostgreSQL abort the transaction (or the subtransaction of its
     * newest savepoint) there and then, releasing its locks, not at the ROLLBACK the application sends later. The
     * effect's accesses count as part of the execution's latest step (the thread's own failing statement, or the step
     * that woke it from a wait inside the database), its releases as the thread's.
     */
    public static void alsoDid(Step effect) {
        if (Thread.currentThread() instanceof Participant p && p.schedulingPointsActive()) {
            p.lastStepAlsoDid(effect);
        }
    }

    /** The index of the calling explored thread, if it is one. */
    public static OptionalInt currentThreadIndex() {
        return Thread.currentThread() instanceof Participant p ? OptionalInt.of(p.threadIndex()) : OptionalInt.empty();
    }

    /** The user's name of the calling explored thread, if it is one. */
    public static Optional<String> currentThreadName() {
        return Thread.currentThread() instanceof Participant p ? Optional.of(p.threadName()) : Optional.empty();
    }

    /** The execution the calling explored thread runs in, if any. */
    public static Optional<ExecutionContext> currentExecution() {
        return Thread.currentThread() instanceof Participant p ? Optional.ofNullable(p.execution()) : Optional.empty();
    }

    /**
     * Values that stand in for random ones inside an exploration. The exploration learns from each execution which
     * orders of conflicting steps it has covered, and that holds for the next execution only if the program repeats
     * itself under the same schedule; a key made at random in Java (a UUID) would name other rows in every execution.
     * Frontrun puts the database back before every execution, and the sources of randomness it can reach (Hibernate's
     * random UUID generators, {@code UUID.randomUUID()} in instrumented classes) draw from here instead: each explored
     * thread, and the exploring thread for the setup and the invariant, has a sequence of its own, the same in every
     * execution of the exploration, on every worker and shard of it, and in its replays. Outside an execution nothing
     * changes: the callers fall back to real randomness. The same per-thread keeping serves any
     * state that must not pass between threads unseen ({@link #perThread}).
     */
    public static final class RepeatableRandom {

        /**
         * Where every sequence starts from, the same in every exploration. A replay, every shard of a sharded
         * exploration and every worker of a parallel one meet the keys the exploration that found a failure met (the
         * database is put back after each exploration, so no key outlives it).
         */
        private static final long SEED = 0x6672_6F6E_7472_756EL;

        private static final Object SEQUENCES = new Object();
        /** The execution whose setup or invariant the calling (exploring) thread runs, while it does. */
        private static final ThreadLocal<ExecutionContext> PREPARING = new ThreadLocal<>();

        private RepeatableRandom() {}

        /** The calling thread's next UUID (version 4) of its sequence in the running execution; empty outside one. */
        public static Optional<UUID> nextUuid() {
            Optional<Drawn> drawn = perThread(SEQUENCES, (execution, owner) -> new Drawn(owner));
            if (drawn.isEmpty()) {
                return Optional.empty();
            }
            long n = drawn.get().count.getAndIncrement();
            long base = mix(drawn.get().seed + 2 * n);
            long msb = base & ~0xF000L | 0x4000L;
            long lsb = mix(base + 1) & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;
            return Optional.of(new UUID(msb, lsb));
        }

        /** One thread's sequence in one execution: its start, and how many it drew. */
        private static final class Drawn {
            final long seed;
            final AtomicLong count = new AtomicLong();

            Drawn(String owner) {
                seed = SEED ^ mix(owner.hashCode());
            }
        }

        /**
         * The calling thread's own value under {@code key} in the running execution; empty outside an execution.
         * It is made by {@code fresh} at its first use (given the execution and the owner: {@code thread N}, or {@code setup} for the exploring thread, which
         * runs the setup and the invariant). What must not pass from one thread to another
         * unseen (a block of ids taken from a sequence) is kept this way, afresh in every execution.
         */
        public static <T> Optional<T> perThread(Object key, BiFunction<ExecutionContext, String, T> fresh) {
            String owner;
            ExecutionContext execution;
            if (Thread.currentThread() instanceof Participant p && p.execution() != null) {
                execution = p.execution();
                owner = "thread " + p.threadIndex();
            } else if (PREPARING.get() != null) {
                execution = PREPARING.get();
                owner = "setup";
            } else {
                return Optional.empty();
            }
            ConcurrentMap<String, T> values = execution.attribute(new OwnKey(key), k -> new ConcurrentHashMap<>());
            return Optional.of(values.computeIfAbsent(owner, o -> fresh.apply(execution, o)));
        }

        /** The execution attribute holding the threads' values under one key. */
        private record OwnKey(Object key) {}

        /** {@link UUID#randomUUID()}, repeatable inside an execution: what instrumented classes call instead. */
        public static UUID randomUUID() {
            return nextUuid().orElseGet(UUID::randomUUID);
        }

        /**
         * The execution whose setup or invariant the calling thread runs, while it does; empty otherwise. Keys the database
         * the database generates for the setup (a uuid default) must get names that repeat too.
         */
        public static Optional<ExecutionContext> setupOrInvariant() {
            return Optional.ofNullable(PREPARING.get());
        }

        /**
         * Runs {@code work}, the exploring thread's part of {@code execution} (its setup, its invariant), with the
         * exploring thread's own sequence. For the engine.
         */
        public static <T> T preparing(ExecutionContext execution, Supplier<T> work) {
            ExecutionContext outer = PREPARING.get();
            PREPARING.set(execution);
            try {
                return work.get();
            } finally {
                if (outer == null) {
                    PREPARING.remove();
                } else {
                    PREPARING.set(outer);
                }
            }
        }

        /** SplitMix64's finalizer: every bit of the input moves every bit of the output. */
        private static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }
}

package dev.frontrun;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why an execution failed, or (for a {@link Timeout} or {@link Nondeterminism}) could not be
 * judged. One record per way of going wrong, each with exactly the facts it has.
 */
public sealed interface Failure
        permits Failure.InvariantViolated,
                Failure.InvariantThrew,
                Failure.NotSerializable,
                Failure.ThreadThrew,
                Failure.Deadlock,
                Failure.Timeout,
                Failure.Nondeterminism,
                Failure.Broken {

    /** The ways an execution can go wrong, for switching and for comparing two failures. */
    enum Kind {
        /** All threads finished but the invariant is false. */
        INVARIANT_VIOLATED,
        /** The invariant itself threw (a failed assertion, say). */
        INVARIANT_THREW,
        /** All threads finished with an outcome no serial order of them gives ({@code Exploration.serializable}). */
        NOT_SERIALIZABLE,
        /** A thread body threw an exception. */
        THREAD_THREW,
        /** No thread could run: a wait-for cycle over Java or database locks. */
        DEADLOCK,
        /** The execution ran past its time limit (makes the verdict inconclusive, not failing). */
        TIMEOUT,
        /** The same schedule behaved differently: the program is not deterministic under the scheduler. */
        NONDETERMINISM,
        /** The setup or the environment (database restore, a hook) failed: the test is broken. */
        BROKEN
    }

    Kind kind();

    /** One line for reports: what failed, where. */
    String summary();

    /** Whether this failure disproves the property (as opposed to only preventing a verdict). */
    default boolean disproves() {
        return true;
    }

    /** Whether this failure says the test is broken (the invariant threw, the setup failed), not the code. */
    default boolean brokenTest() {
        return false;
    }

    /**
     * Whether this failure happened in {@code trace} without any interleaving, so it is no race.
     * The threads ran one after the other (a deadlock always needs the threads in between).
     */
    default boolean withoutInterleaving(List<TraceStep> trace) {
        return TraceStep.oneThreadAfterAnother(trace);
    }

    /** The exception of a thread body or of the invariant, if one was thrown. */
    default Optional<Throwable> cause() {
        return Optional.empty();
    }

    /** Stack dumps of the stuck threads (deadlock, timeout), or empty. */
    default String threadDumps() {
        return "";
    }

    /** All threads finished but the invariant, described by {@code invariant}, is false. */
    record InvariantViolated(String invariant) implements Failure {
        @Override
        public Kind kind() {
            return Kind.INVARIANT_VIOLATED;
        }

        @Override
        public String summary() {
            return "the invariant does not hold after all threads finished";
        }
    }

    /**
     * The invariant threw {@code exception} (an assertion that failed, say). Whether that is a race depends on
     * {@code alsoSerially}: whether it threw too when the threads ran one after the other, in each order (the first
     * 24 orders beyond four threads), from the same start. Then the invariant, the setup or the code fails whatever
     * the order: the test is broken, not racing. Otherwise the interleaving made it throw, a failure like a violated
     * invariant, and the exception's message says what was wrong.
     */
    record InvariantThrew(String invariant, Throwable exception, boolean alsoSerially) implements Failure {
        public InvariantThrew {
            Objects.requireNonNull(exception, "exception");
        }

        @Override
        public Kind kind() {
            return Kind.INVARIANT_THREW;
        }

        @Override
        public String summary() {
            String message = exception.getMessage() == null
                    ? ""
                    : exception.getMessage().strip().replaceAll("\\s+", " ");
            String thrown = exception.getClass().getName() + (message.isEmpty() ? "" : ": " + message);
            if (alsoSerially) {
                return "the invariant threw " + thrown + ", also with the threads run one after the other";
            }
            return exception instanceof AssertionError && !message.isEmpty()
                    ? "the invariant failed: " + message
                    : "the invariant threw " + thrown;
        }

        @Override
        public Optional<Throwable> cause() {
            return Optional.of(exception);
        }

        @Override
        public boolean disproves() {
            return !alsoSerially;
        }

        @Override
        public boolean brokenTest() {
            return alsoSerially;
        }
    }

    /**
     * All threads finished, and what the exploration observes ({@code Exploration.serializable}) equals what no
     * order of the threads run one after the other gives: the interleaving changed the outcome. {@code nearestOrder}
     * names the threads of the serial order whose observation differs least, {@code differences} what differs from
     * it, {@code serialOrders} how many orders were run.
     */
    record NotSerializable(List<String> nearestOrder, int serialOrders, List<Difference> differences)
            implements Failure {
        public NotSerializable {
            nearestOrder = List.copyOf(nearestOrder);
            differences = List.copyOf(differences);
        }

        /**
         * One thing that differs between the interleaving and the nearest serial order, as rendered values (null:
         * absent). A thread's answer has {@code thread} set; a row has {@code table}, {@code row} (its key) and, when
         * one column differs, {@code column}; a store's resource has only {@code row} (its name).
         */
        public record Difference(
                String thread, String table, String row, String column, String interleaved, String serially) {

            /** A thread's answer: {@code interleaved} here, {@code serially} in the serial order. */
            public static Difference answer(String thread, String interleaved, String serially) {
                return new Difference(
                        Objects.requireNonNull(thread, "thread"), null, null, null, interleaved, serially);
            }

            /** A column of a row, or the row itself ({@code column} null: there in one outcome only). */
            public static Difference row(String table, String row, String column, String interleaved, String serially) {
                return new Difference(null, Objects.requireNonNull(table, "table"), row, column, interleaved, serially);
            }

            /**
             * What a store beside the database holds of {@code resource} (a Redis key, {@code redis:0:counter}); null:
             * nothing there.
             */
            public static Difference stored(String resource, String interleaved, String serially) {
                return new Difference(
                        null, null, Objects.requireNonNull(resource, "resource"), null, interleaved, serially);
            }

            /** What the user's observation function returned, when it differs as a whole. */
            public static Difference observed(String interleaved, String serially) {
                return new Difference(null, null, null, null, interleaved, serially);
            }
        }

        @Override
        public Kind kind() {
            return Kind.NOT_SERIALIZABLE;
        }

        @Override
        public String summary() {
            return "no serial order of the threads gives this outcome (the nearest, " + nearestOrder + ", differs in "
                    + differences.size() + (differences.size() == 1 ? " place)" : " places)");
        }

        @Override
        public boolean withoutInterleaving(List<TraceStep> trace) {
            return false; // the threads one after the other give a serial outcome by definition
        }
    }

    /** The body of thread {@code threadName} threw {@code exception}. */
    record ThreadThrew(String threadName, Throwable exception) implements Failure {
        public ThreadThrew {
            Objects.requireNonNull(threadName, "threadName");
            Objects.requireNonNull(exception, "exception");
        }

        @Override
        public Kind kind() {
            return Kind.THREAD_THREW;
        }

        @Override
        public String summary() {
            return "thread '" + threadName + "' threw " + exception;
        }

        @Override
        public Optional<Throwable> cause() {
            return Optional.of(exception);
        }
    }

    /** No thread could run: {@code diagnosis} describes the wait-for cycle. */
    record Deadlock(String diagnosis, String threadDumps) implements Failure {
        public Deadlock {
            threadDumps = threadDumps == null ? "" : threadDumps;
        }

        @Override
        public boolean withoutInterleaving(List<TraceStep> trace) {
            return false;
        }

        @Override
        public Kind kind() {
            return Kind.DEADLOCK;
        }

        @Override
        public String summary() {
            return "deadlock: " + diagnosis;
        }
    }

    /** The execution ran past its time limit; the verdict is inconclusive. */
    record Timeout(String diagnosis, String threadDumps) implements Failure {
        public Timeout {
            threadDumps = threadDumps == null ? "" : threadDumps;
        }

        @Override
        public Kind kind() {
            return Kind.TIMEOUT;
        }

        @Override
        public String summary() {
            return "timeout: " + diagnosis;
        }

        @Override
        public boolean disproves() {
            return false;
        }
    }

    /** The setup or the environment failed in {@code stage} (e.g. {@code setup}, {@code beforeExecution}): the test is broken. */
    record Broken(String stage, Throwable exception) implements Failure {
        public Broken {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(exception, "exception");
        }

        @Override
        public Kind kind() {
            return Kind.BROKEN;
        }

        @Override
        public String summary() {
            return "the test is broken: " + stage + " threw " + exception;
        }

        @Override
        public Optional<Throwable> cause() {
            return Optional.of(exception);
        }

        @Override
        public boolean disproves() {
            return false;
        }

        @Override
        public boolean brokenTest() {
            return true;
        }
    }

    /** The same schedule behaved differently; the verdict is inconclusive. */
    record Nondeterminism(String diagnosis) implements Failure {
        @Override
        public Kind kind() {
            return Kind.NONDETERMINISM;
        }

        @Override
        public String summary() {
            return "nondeterminism: " + diagnosis;
        }

        @Override
        public boolean disproves() {
            return false;
        }
    }
}

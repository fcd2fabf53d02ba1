package dev.frontrun.internal.engine.execution;

/**
 * What an instrumented class's static initializer calls on entry and exit, so the code it runs is never
 * a scheduling point.
 *
 * <p>The JVM runs a class's initializer under the class's initialization lock: a worker parked at a point
 * inside it would make every other thread that touches the class wait on a lock the scheduler cannot see
 * (a thread that looks runnable, an execution that times out, a class whose initialization failed for the
 * rest of the JVM), and a step there would be taken in the first execution only. Inside an initializer, and
 * everything it calls on that thread, instrumented sites pass as uninstrumented ones do and no source of
 * scheduling points announces a step ({@code SchedulingPoints.active()} is false): the initialization is part
 * of the step of the thread that triggered it.
 */
public final class ClassInitialization {

    private ClassInitialization() {}

    /** Before the first instruction of an instrumented class's static initializer. */
    public static void entered() {
        if (Thread.currentThread() instanceof WorkerThread w) {
            w.classInitializations++;
        }
    }

    /** After the initializer returned or threw. */
    public static void left() {
        if (Thread.currentThread() instanceof WorkerThread w && w.classInitializations > 0) {
            w.classInitializations--;
        }
    }
}

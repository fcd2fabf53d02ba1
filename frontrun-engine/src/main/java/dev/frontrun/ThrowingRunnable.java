package dev.frontrun;

/**
 * A thread body that needs no per-execution state and may throw.
 * For example {@code () -> mvc.perform(post("/owners/1/edit"))}: the usual shape when the state lives in a
 * database or an application context.
 */
@FunctionalInterface
public interface ThrowingRunnable {
    void run() throws Exception;
}

package dev.frontrun.spring;

/** A thread body that may throw, such as {@code () -> mvc.perform(post("/owners/1/edit"))}. */
@FunctionalInterface
public interface ThrowingRunnable {
    void run() throws Exception;
}

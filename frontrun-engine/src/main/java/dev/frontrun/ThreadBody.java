package dev.frontrun;

/** The code one explored thread runs against the execution's state; may throw checked exceptions. */
@FunctionalInterface
public interface ThreadBody<S> {
    void run(S state) throws Exception;
}

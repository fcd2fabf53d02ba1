package dev.frontrun.spring;

/**
 * A logging framework's way of handing the events an explored thread logs to {@link HeldLogs} instead of its
 * appenders, for the duration of one exploration.
 */
interface LogDiversion {

    /** Where the events go: asked on the logging thread whether it holds them, then given each one. */
    interface Holder {

        /** Whether the calling thread is an explored thread of this exploration, whose events are held. Cheap. */
        boolean holds();

        /** Keeps an event the calling thread logged: {@code line} appends it where it would have gone. */
        void hold(Runnable line);
    }

    /** Starts diverting to {@code holder}; closing the result ends it. */
    AutoCloseable divert(Holder holder);
}

package dev.frontrun.internal.engine.run;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Last resort for a thread stuck in a wait that ignores interrupts ({@code ReentrantLock.lock()},
 * a {@code synchronized} deadlock): {@code Thread.stop()}, which JDK 17 still supports. On JDKs
 * where it is gone the thread is reported as leaked instead.
 */
final class ThreadStopper {

    private static final Method STOP = find();

    private ThreadStopper() {}

    private static Method find() {
        try {
            return Thread.class.getMethod("stop");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    static boolean stop(Thread thread) {
        if (STOP == null) {
            return false;
        }
        try {
            STOP.invoke(thread);
            return true;
        } catch (IllegalAccessException | InvocationTargetException | UnsupportedOperationException e) {
            return false;
        }
    }
}

package dev.frontrun.spring.witness;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What an application's own code saw: requests that reached its handler, and exceptions it caught or handled. Kept
 * outside the application's packages, which Frontrun instruments, so that keeping count is no scheduling point.
 */
public class Seen {

    private final AtomicInteger reached = new AtomicInteger();
    private final List<Throwable> caught = new CopyOnWriteArrayList<>();
    private final List<Throwable> handled = new CopyOnWriteArrayList<>();

    public void clear() {
        reached.set(0);
        caught.clear();
        handled.clear();
    }

    /** A request reached the handler. */
    public void reached() {
        reached.incrementAndGet();
    }

    /** The handler's own {@code catch (Exception e)} caught {@code e}. */
    public void caught(Throwable e) {
        caught.add(e);
    }

    /** The catch-all {@code @ExceptionHandler(Exception.class)} was handed {@code e}. */
    public void handled(Throwable e) {
        handled.add(e);
    }

    public int requestsReached() {
        return reached.get();
    }

    public List<Throwable> caughtByTheHandler() {
        return caught;
    }

    public List<Throwable> handledByTheAdvice() {
        return handled;
    }
}

package dev.frontrun.nativeio;

/**
 * One hold on a nesting switch of the library (requests fed, a port ignored). The switch stays on
 * while any hold on it is open; closing this one releases it only, once.
 */
public final class Hold implements AutoCloseable {

    private final Runnable release;
    private boolean closed;

    Hold(Runnable release) {
        this.release = release;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            release.run();
        }
    }
}

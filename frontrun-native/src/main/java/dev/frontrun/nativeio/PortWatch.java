package dev.frontrun.nativeio;

/**
 * A watch on a peer port, from {@link NativeIo#watchPort(int)}. While any watch on a port is open,
 * calls on sockets connected to it are counted (and recorded, if events are being recorded).
 * Closing it releases this watch only; watches on the same port nest.
 */
public final class PortWatch implements AutoCloseable {

    private final FrontrunIoLibrary library;
    private final int port;
    private boolean closed;

    PortWatch(FrontrunIoLibrary library, int port) {
        this.library = library;
        this.port = port;
    }

    public int port() {
        return port;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            library.frontrun_io_watch_port(port, 0);
        }
    }
}

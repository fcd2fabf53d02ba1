package dev.frontrun.nativeio;

/**
 * Keeps the native library recording events of watched traffic until closed; see
 * {@link NativeIo#recordEvents()}. Recordings nest: events are recorded while any is open.
 */
public final class EventRecording implements AutoCloseable {

    private final FrontrunIoLibrary library;
    private boolean closed;

    EventRecording(FrontrunIoLibrary library) {
        this.library = library;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            library.frontrun_io_record_events(0);
        }
    }
}

package dev.frontrun.nativeio;

import com.sun.jna.Memory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the LD_PRELOAD interposer ({@code libfrontrun_io.so}) sees of this JVM's socket I/O beneath
 * JDBC. Bytes and calls per socket, per thread and as a stream of events, for watched peer ports.
 *
 * <p>Never a silent green: when the interposer is not preloaded and interposing, every method that
 * reports I/O throws an {@link IllegalStateException} that says how to enable it, rather than
 * reporting no I/O. Check {@link #interceptionActive()} first to degrade deliberately.
 *
 * <p>Per-thread counts are per OS thread (platform threads).
 */
public final class NativeIo {

    private NativeIo() {}

    /** Decided once per JVM: LD_PRELOAD cannot change after start-up. */
    private static final class State {
        static final Interception INTERCEPTION = Interception.detect();
    }

    /** Whether the interposer is preloaded into this JVM and intercepting its libc I/O calls. */
    public static boolean interceptionActive() {
        return State.INTERCEPTION.active();
    }

    /**
     * Why interception is not active, with the exact {@code LD_PRELOAD=} setting to use; empty when
     * it is active.
     */
    public static Optional<String> inactiveReason() {
        Interception interception = State.INTERCEPTION;
        return interception.active() ? Optional.empty() : Optional.of(notActiveMessage(interception.problem()));
    }

    /**
     * Fails unless {@link #interceptionActive()}.
     *
     * @throws IllegalStateException naming the reason and the exact {@code LD_PRELOAD=} setting to use
     */
    public static void requireActive() {
        library();
    }

    /** The interposer library file for this platform, extracted from the jar if need be. */
    public static Optional<Path> libraryFile() {
        return LibraryFile.locate();
    }

    /** The environment setting that enables interception for a JVM started with it. */
    public static String preloadLine() {
        Path file = libraryFile()
                .orElseThrow(() -> new IllegalStateException("frontrun-native has no "
                        + LibraryFile.FILE_NAME + " for this platform (" + LibraryFile.resourceName()
                        + " is not on the classpath): it is built on Linux only"));
        String existing = System.getenv("LD_PRELOAD");
        boolean keep = existing != null && !existing.isBlank() && !existing.contains(LibraryFile.FILE_NAME);
        return "LD_PRELOAD=" + file.toAbsolutePath() + (keep ? ":" + existing : "");
    }

    /** Where the active interposer was loaded from. */
    public static String loadedFrom() {
        library();
        return State.INTERCEPTION.loadedFrom();
    }

    /** Starts counting traffic to a peer port (PostgreSQL's, typically); close the watch to stop. */
    public static PortWatch watchPort(int port) {
        checkPort(port);
        FrontrunIoLibrary library = library();
        library.frontrun_io_watch_port(port, 1);
        return new PortWatch(library, port);
    }

    /** Whether any watch on the port is open. */
    public static boolean watched(int port) {
        checkPort(port);
        return library().frontrun_io_watch_count(port) > 0;
    }

    /**
     * The calling thread's counts of traffic to a watched port, since the thread's first such call.
     * Diff two snapshots with {@link IoCounters#minus}.
     *
     * @throws IllegalStateException if the port is not watched (its traffic would not be counted)
     */
    public static IoCounters snapshot(int port) {
        if (!watched(port)) {
            throw new IllegalStateException("port " + port + " is not watched, so its traffic is not counted: "
                    + "open NativeIo.watchPort(" + port + ") before the I/O");
        }
        long[] counters = new long[IoCounters.SIZE];
        int found = library().frontrun_io_thread_counters(port, counters);
        if (found < 0) {
            throw new IllegalStateException("this thread talked to more than "
                    + library().frontrun_io_thread_ports_max()
                    + " watched ports, so its counts for port " + port + " may be incomplete");
        }
        return IoCounters.of(counters);
    }

    /** The open sockets connected to a peer port, with their counts while the port was watched. */
    public static List<TrackedSocket> sockets(int port) {
        checkPort(port);
        FrontrunIoLibrary library = library();
        int capacity = 16;
        while (true) {
            Memory buffer = new Memory((long) NativeLayout.SOCKET_SIZE * capacity);
            int matched = library.frontrun_io_sockets(port, buffer, capacity);
            if (matched <= capacity) {
                List<TrackedSocket> sockets = new ArrayList<>(matched);
                for (int i = 0; i < matched; i++) {
                    sockets.add(NativeLayout.socket(buffer, (long) i * NativeLayout.SOCKET_SIZE));
                }
                return sockets;
            }
            capacity = matched + 16;
        }
    }

    /** The calling thread's kernel thread id, as in {@link IoEvent#threadId()}. */
    public static int currentThreadId() {
        return library().frontrun_io_gettid();
    }

    /**
     * Starts recording every call on watched sockets as an {@link IoEvent}, until the returned
     * recording is closed. The events go to one process-wide ring buffer: drain it regularly with
     * {@link #drainEvents()}; events that do not fit are dropped and counted, never lost silently.
     */
    public static EventRecording recordEvents() {
        FrontrunIoLibrary library = library();
        library.frontrun_io_record_events(1);
        return new EventRecording(library);
    }

    /**
     * Starts recording the PostgreSQL frontend messages (Query, Parse, Bind: SQL text and statement
     * names) that this process's threads write to watched ports, until the returned recording is
     * closed; drain them with {@link PgRecording#drain()}. Every tracked connection is followed as the
     * PostgreSQL protocol from its connect on, so connections opened before the recording (a pool's)
     * are read correctly too.
     *
     * @throws IllegalStateException if another recording is open: the buffer is process-wide and a
     *                               message drained by one recording is never seen by another, so two
     *                               at once (explorations with the native check in parallel) could miss SQL
     */
    public static PgRecording recordPgMessages() {
        FrontrunIoLibrary library = library();
        if (library.frontrun_io_record_pg(1) != 1) {
            library.frontrun_io_record_pg(0);
            throw new IllegalStateException("another recording of PostgreSQL messages is open in this JVM: each"
                    + " message goes to one of them only, so explorations with Frontrun's native check must run one"
                    + " at a time per JVM");
        }
        return new PgRecording(library);
    }

    /** The listener the library calls before a fed thread's request leaves; one per JVM, like the library. */
    private static RequestCallback requestCallback;

    /**
     * Registers the listener told of every request a fed thread sends ({@link RequestListener}). One
     * listener per JVM: registering the same one again does nothing, another one is refused.
     */
    public static synchronized void listenToRequests(RequestListener listener) {
        FrontrunIoLibrary library = library();
        if (requestCallback != null) {
            if (requestCallback.listener() != listener) {
                throw new IllegalStateException("another request listener is registered in this JVM");
            }
            return;
        }
        requestCallback = new RequestCallback(listener);
        library.frontrun_io_set_request_callback(requestCallback);
    }

    /**
     * Starts telling the listener of fed threads' requests, process-wide, until the hold is closed
     * (holds nest: explorations side by side each hold one). Outside a hold a write costs one more
     * load than without the feature.
     */
    public static Hold feedRequests() {
        FrontrunIoLibrary library = library();
        library.frontrun_io_feed_requests(1);
        return new Hold(() -> library.frontrun_io_feed_requests(0));
    }

    /**
     * Whether the calling thread's requests are told to the listener (an explored thread: set when it
     * starts its body). The setting lives and dies with the OS thread.
     */
    public static void feedCurrentThread(boolean on) {
        library().frontrun_io_feed_thread(on ? 1 : 0);
    }

    /** Stops telling requests to a peer port (the database's, whose traffic the JDBC proxy explores) until the hold is closed. */
    public static Hold ignoreRequestsTo(int port) {
        checkPort(port);
        FrontrunIoLibrary library = library();
        library.frontrun_io_ignore_port(port, 1);
        return new Hold(() -> library.frontrun_io_ignore_port(port, 0));
    }

    /**
     * How many requests went out while requests were fed but were sent by threads that are not fed (a
     * client writing on threads of its own), since the library was loaded, and the last one's peer port.
     */
    public static UnfedRequests unfedRequests() {
        com.sun.jna.ptr.IntByReference port = new com.sun.jna.ptr.IntByReference();
        int count = library().frontrun_io_unfed_requests(port);
        return new UnfedRequests(Integer.toUnsignedLong(count), port.getValue());
    }

    /** A count of {@link #unfedRequests}, and the peer port of the last one. */
    public record UnfedRequests(long count, int lastPort) {}

    /** Removes and returns every event recorded so far, oldest first. One consumer per JVM. */
    public static EventBatch drainEvents() {
        FrontrunIoLibrary library = library();
        int chunk = 1024;
        Memory buffer = new Memory((long) NativeLayout.EVENT_SIZE * chunk);
        List<IoEvent> events = new ArrayList<>();
        int n;
        do {
            n = library.frontrun_io_drain(buffer, chunk);
            for (int i = 0; i < n; i++) {
                events.add(NativeLayout.event(buffer, (long) i * NativeLayout.EVENT_SIZE));
            }
        } while (n == chunk);
        return new EventBatch(events, library.frontrun_io_dropped());
    }

    private static FrontrunIoLibrary library() {
        Interception interception = State.INTERCEPTION;
        if (!interception.active()) {
            throw new IllegalStateException(notActiveMessage(interception.problem()));
        }
        return interception.library();
    }

    private static String notActiveMessage(String problem) {
        String howTo;
        try {
            howTo = "Start the JVM with the interposer preloaded, e.g. in its environment:\n    " + preloadLine()
                    + "\n(with Maven Surefire: <environmentVariables><LD_PRELOAD>...</LD_PRELOAD></environmentVariables>)";
        } catch (RuntimeException e) {
            howTo = "The interposer library is not available to preload: " + e.getMessage();
        }
        return "Frontrun native I/O interception is not active in this JVM: " + problem + ".\n"
                + "Frontrun will not report \"no I/O\" for I/O it cannot see. " + howTo;
    }

    private static void checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port + " (0 selects Unix-domain sockets)");
        }
    }
}

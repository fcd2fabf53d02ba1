package dev.frontrun.nativeio;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Pointer;

/**
 * JNA mapping of the C API in {@code frontrun_io.h}. Bound to the process (not to a file) so that
 * the calls reach the preloaded copy of the library, the one whose hooks libc callers actually hit.
 */
interface FrontrunIoLibrary extends Library {

    /** {@code FRONTRUN_IO_MAGIC}: "FRN" and ABI version 4. */
    int MAGIC = 0x46524e04;

    /** {@code frontrun_io_request_fn}: called on the writing thread before a request's first byte leaves. */
    interface RequestCallback extends Callback {
        int invoke(int fd, int family, Pointer address, int port, Pointer head, int headLength);
    }

    int frontrun_io_active();

    int frontrun_io_probe();

    String frontrun_io_library_path();

    int frontrun_io_gettid();

    int frontrun_io_watch_port(int port, int on);

    int frontrun_io_watch_count(int port);

    int frontrun_io_record_events(int on);

    int frontrun_io_drain(Pointer out, int max);

    long frontrun_io_dropped();

    int frontrun_io_thread_counters(int port, long[] out);

    int frontrun_io_thread_ports_max();

    int frontrun_io_sockets(int port, Pointer out, int max);

    int frontrun_io_record_pg(int on);

    int frontrun_io_drain_pg(Pointer out, int max);

    long frontrun_io_pg_dropped();

    void frontrun_io_set_request_callback(RequestCallback callback);

    int frontrun_io_feed_requests(int on);

    int frontrun_io_feed_thread(int on);

    int frontrun_io_ignore_port(int port, int on);

    int frontrun_io_unfed_requests(com.sun.jna.ptr.IntByReference lastPort);
}

package dev.frontrun.nativeio;

/**
 * Counts of intercepted calls on watched sockets. "Out" calls are write-like (write, send, sendto,
 * sendmsg, writev), "in" calls read-like (read, recv, recvfrom, recvmsg, readv); failed calls (for
 * example EAGAIN on a non-blocking socket) count as calls that moved no bytes.
 */
public record IoCounters(
        long outCalls, long outBytes, long inCalls, long inBytes, long polls, long connects, long closes) {

    public static final IoCounters ZERO = new IoCounters(0, 0, 0, 0, 0, 0, 0);

    /** Number of counters in the native layout ({@code FRONTRUN_IO_NCOUNTERS}). */
    static final int SIZE = 7;

    static IoCounters of(long[] c) {
        return new IoCounters(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }

    /** What happened between {@code earlier} and this snapshot. */
    public IoCounters minus(IoCounters earlier) {
        return new IoCounters(
                outCalls - earlier.outCalls,
                outBytes - earlier.outBytes,
                inCalls - earlier.inCalls,
                inBytes - earlier.inBytes,
                polls - earlier.polls,
                connects - earlier.connects,
                closes - earlier.closes);
    }
}

package dev.frontrun.nativeio;

import java.util.Objects;

/**
 * One intercepted call on a watched socket, as recorded by the preloaded library.
 *
 * @param sequence position in the native ring buffer; consecutive unless events were dropped
 * @param threadId the kernel thread id (gettid) of the calling thread, see {@link NativeIo#currentThreadId()}
 * @param result   the call's return value: bytes moved, or -1
 * @param errno    errno when {@code result < 0}, else 0
 * @param peer     the address at the socket's other end
 */
public record IoEvent(long sequence, int threadId, int fd, IoOp op, long result, int errno, Peer peer) {

    /**
     * The other end of a watched socket, so events can be told apart by server.
     *
     * @param host the peer address, or {@code "unix"} for a Unix-domain socket
     */
    public record Peer(String host, int port) {}

    public IoEvent {
        Objects.requireNonNull(peer, "peer");
    }

    public String host() {
        return peer.host();
    }

    public int port() {
        return peer.port();
    }

    /** Bytes this call moved (0 for failed calls, polls, connects and closes). */
    public long bytes() {
        return (op.outgoing() || op.incoming()) && result > 0 ? result : 0;
    }
}

package dev.frontrun.nativeio;

import com.sun.jna.Pointer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Decodes the fixed native layouts of {@code struct frontrun_io_event} and
 * {@code struct frontrun_io_socket} by offset: cheaper and more explicit than JNA structures.
 */
final class NativeLayout {

    static final int EVENT_SIZE = 56;
    static final int SOCKET_SIZE = 88;
    static final int PG_EVENT_SIZE = 288;

    private static final int AF_UNIX = 1;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;

    private NativeLayout() {}

    static IoEvent event(Pointer p, long base) {
        return new IoEvent(
                p.getLong(base),
                p.getInt(base + 16),
                p.getInt(base + 20),
                IoOp.of(p.getInt(base + 24)),
                p.getLong(base + 8),
                p.getInt(base + 28),
                new IoEvent.Peer(host(p.getInt(base + 36), p.getByteArray(base + 40, 16)), p.getInt(base + 32)));
    }

    static PgChunk pgChunk(Pointer p, long base) {
        int length = p.getInt(base + 36);
        return new PgChunk(
                new PgMessage.Origin(
                        p.getInt(base + 8),
                        p.getInt(base + 12),
                        p.getInt(base + 16),
                        p.getInt(base + 20),
                        p.getInt(base + 24)),
                (char) (p.getByte(base + 28) & 0xff),
                p.getByte(base + 29),
                p.getByte(base + 30),
                p.getInt(base + 32),
                p.getByteArray(base + 40, length));
    }

    static TrackedSocket socket(Pointer p, long base) {
        return new TrackedSocket(
                p.getInt(base),
                host(p.getInt(base + 8), p.getByteArray(base + 16, 16)),
                p.getInt(base + 4),
                IoCounters.of(p.getLongArray(base + 32, IoCounters.SIZE)));
    }

    static String host(int family, byte[] address) {
        try {
            return switch (family) {
                case AF_INET ->
                    InetAddress.getByAddress(Arrays.copyOf(address, 4)).getHostAddress();
                case AF_INET6 -> InetAddress.getByAddress(address).getHostAddress();
                case AF_UNIX -> "unix";
                default -> "family-" + family;
            };
        } catch (UnknownHostException e) {
            throw new IllegalStateException("malformed native address of family " + family, e);
        }
    }
}

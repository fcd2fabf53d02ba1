package dev.frontrun.nativeio;

/** The intercepted libc call behind an {@link IoEvent}; codes match {@code enum frontrun_io_op}. */
public enum IoOp {
    CONNECT(1),
    CLOSE(2),
    POLL(3),
    READ(4),
    RECV(5),
    RECVFROM(6),
    RECVMSG(7),
    READV(8),
    WRITE(9),
    SEND(10),
    SENDTO(11),
    SENDMSG(12),
    WRITEV(13);

    private final int code;

    IoOp(int code) {
        this.code = code;
    }

    /** Whether the call sends bytes to the peer (write, send, sendto, sendmsg, writev). */
    public boolean outgoing() {
        return code >= WRITE.code;
    }

    /** Whether the call receives bytes from the peer (read, recv, recvfrom, recvmsg, readv). */
    public boolean incoming() {
        return code >= READ.code && code < WRITE.code;
    }

    static IoOp of(int code) {
        for (IoOp op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown native I/O op code " + code);
    }
}

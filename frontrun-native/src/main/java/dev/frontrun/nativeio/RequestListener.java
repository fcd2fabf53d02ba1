package dev.frontrun.nativeio;

/**
 * Told, on the requesting thread itself and before the request's first byte leaves, of each request
 * a fed thread ({@link NativeIo#feedCurrentThread}) sends to a port that is not ignored. It may
 * park the thread (a scheduling point). It must not do socket I/O itself (that I/O would not be
 * announced); whatever it throws fails the write with an {@code IOException} ("Operation canceled"),
 * the only way back through the JDK's native socket code.
 */
@FunctionalInterface
public interface RequestListener {

    void requestStarting(SocketRequest request) throws Throwable;
}

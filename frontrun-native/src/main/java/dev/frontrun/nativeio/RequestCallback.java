package dev.frontrun.nativeio;

import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;

/**
 * The one callback the library calls before a fed thread's request leaves. Decodes the peer and the
 * request's first line and hands them to the listener. Kept strongly reachable for as long as the
 * library may call it (JNA frees a collected callback's native stub).
 */
final class RequestCallback implements FrontrunIoLibrary.RequestCallback {

    private final RequestListener listener;

    RequestCallback(RequestListener listener) {
        this.listener = listener;
    }

    RequestListener listener() {
        return listener;
    }

    @Override
    public int invoke(int fd, int family, Pointer address, int port, Pointer head, int headLength) {
        try {
            listener.requestStarting(new SocketRequest(
                    NativeLayout.host(family, address.getByteArray(0, 16)), port, firstLine(head, headLength)));
            return 0;
        } catch (Throwable t) {
            // nothing may unwind through native code: the write fails instead (see RequestListener)
            return -1;
        }
    }

    /** The head's first line if it is printable ASCII (an HTTP request line), else empty. */
    static String firstLine(Pointer head, int length) {
        if (head == null || length <= 0) {
            return "";
        }
        byte[] bytes = head.getByteArray(0, length);
        int end = 0;
        while (end < bytes.length && bytes[end] != '\r' && bytes[end] != '\n') {
            if (bytes[end] < 0x20 || bytes[end] > 0x7e) {
                return "";
            }
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }
}

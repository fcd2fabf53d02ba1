package dev.frontrun.nativeio;

import java.util.Objects;

/**
 * A request a thread is about to send to another service, seen beneath the JDK by the preloaded
 * library. The first write on a connected socket since the connection was opened or since the last
 * response came back on it.
 *
 * @param host the peer address ({@code 127.0.0.1}, {@code ::1}), or {@code unix} for a Unix-domain socket
 * @param port the peer port (0 for a Unix-domain socket)
 * @param head the request's first line when it is text (an HTTP request line), else empty
 */
public record SocketRequest(String host, int port, String head) {

    public SocketRequest {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(head, "head");
    }

    /** The endpoint as a resource: {@code socket:<host>:<port>} ({@code socket:[::1]:8080} for IPv6). */
    public String endpoint() {
        return "socket:" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}

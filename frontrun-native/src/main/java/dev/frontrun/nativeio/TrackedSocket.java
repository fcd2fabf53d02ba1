package dev.frontrun.nativeio;

/**
 * A socket the preloaded library saw being connected, and what was counted on it since (only while
 * its peer port was watched).
 *
 * @param host the peer address, or {@code "unix"} for a Unix-domain socket (then {@code port} is 0)
 */
public record TrackedSocket(int fd, String host, int port, IoCounters counters) {}

package dev.frontrun.nativeio.proxycheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Which peers each thread read from or wrote to over a socket while the recording was open, as the JDK itself reports
 * it without Frontrun's native library: its Flight Recorder events {@code jdk.SocketRead} and {@code jdk.SocketWrite},
 * emitted by {@code java.net.Socket}'s streams and by {@code SocketChannel} (what every blocking client, JDBC drivers
 * included, sends through), recorded here at every duration and without stack traces.
 */
final class SocketTraffic {

    private static final String[] EVENTS = {"jdk.SocketRead", "jdk.SocketWrite"};

    /** A socket's far end, as the event names it. */
    record Peer(String address, int port) implements Comparable<Peer> {
        @Override
        public int compareTo(Peer other) {
            int byAddress = address.compareTo(other.address);
            return byAddress != 0 ? byAddress : Integer.compare(port, other.port);
        }

        @Override
        public String toString() {
            return address + ":" + port;
        }
    }

    private final Recording recording;

    private SocketTraffic(Recording recording) {
        this.recording = recording;
    }

    /** Starts recording, or empty when this JVM has no Flight Recorder (a runtime built without {@code jdk.jfr}). */
    static Optional<SocketTraffic> start() {
        try {
            if (!FlightRecorder.isAvailable()) {
                return Optional.empty();
            }
            Recording recording = new Recording();
            recording.setName("Frontrun: the explored threads' sockets");
            for (String event : EVENTS) {
                recording.enable(event).withThreshold(Duration.ZERO).withoutStackTrace();
            }
            recording.start();
            return Optional.of(new SocketTraffic(recording));
        } catch (LinkageError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Stops recording and reads what it saw: each thread's peers, by Java thread id. */
    Map<Long, Set<Peer>> stop() throws IOException {
        Path file = Files.createTempFile("frontrun-sockets", ".jfr");
        try {
            recording.stop();
            recording.dump(file);
            Map<Long, Set<Peer>> peers = new HashMap<>();
            try (RecordingFile events = new RecordingFile(file)) {
                while (events.hasMoreEvents()) {
                    RecordedEvent event = events.readEvent();
                    RecordedThread thread = event.getThread();
                    if (thread != null && event.hasField("port") && event.hasField("address")) {
                        peers.computeIfAbsent(thread.getJavaThreadId(), id -> new TreeSet<>())
                                .add(new Peer(String.valueOf(event.getString("address")), event.getInt("port")));
                    }
                }
            }
            return peers;
        } finally {
            recording.close();
            Files.deleteIfExists(file);
        }
    }
}

package dev.frontrun.nativeio;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

/**
 * Child-JVM program of {@link SubprocessTest}: starting a subprocess must not disturb the parent's
 * socket tracking. With the VFORK launch mechanism the child runs in the parent's memory until it
 * execs and closes every inherited fd first, through the very close() the interposer hooks.
 *
 * <p>Run with {@code -Djdk.lang.Process.launchMechanism=...}; prints the tracked sockets and
 * counts before and after the subprocess.
 */
public final class SpawnKeepsTrackingMain {

    public static void main(String[] args) throws Exception {
        NativeIo.requireActive();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                PortWatch watch = NativeIo.watchPort(server.getLocalPort());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket peer = server.accept()) {
            int port = server.getLocalPort();
            OutputStream out = client.getOutputStream();
            InputStream in = peer.getInputStream();
            out.write(new byte[10]);
            in.readNBytes(10);
            List<TrackedSocket> before = NativeIo.sockets(port);

            Process process = new ProcessBuilder("true").start();
            int exit = process.waitFor();

            out.write(new byte[20]);
            in.readNBytes(20);
            List<TrackedSocket> after = NativeIo.sockets(port);
            System.out.printf(
                    "spawn mechanism=%s exit=%d socketsBefore=%d socketsAfter=%d outBytesAfter=%d%n",
                    System.getProperty("jdk.lang.Process.launchMechanism"),
                    exit,
                    before.size(),
                    after.size(),
                    after.isEmpty() ? -1 : after.get(0).counters().outBytes());
        }
    }
}

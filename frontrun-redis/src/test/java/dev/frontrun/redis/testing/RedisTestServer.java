package dev.frontrun.redis.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} of the tests' own, on a free port of 127.0.0.1, without persistence: started, and known
 * ready once its log says it accepts connections and it answers {@code PING}. The binary is the one the build
 * installed ({@code -Dfrontrun.redis.server}, by default {@code /usr/bin/redis-server}). Shared, as this module's
 * test-jar, by the modules whose tests need a Redis.
 */
public final class RedisTestServer implements AutoCloseable {

    private static final int ATTEMPTS = 5;

    private final Process process;
    private final int port;
    private final Path directory;

    private RedisTestServer(Process process, int port, Path directory) {
        this.process = process;
        this.port = port;
        this.directory = directory;
    }

    /** Starts a server; a free port another process takes before the server binds it is tried again. */
    public static RedisTestServer start() throws IOException {
        String binary = System.getProperty("frontrun.redis.server", "/usr/bin/redis-server");
        if (!Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException(
                    "no redis-server at " + binary + ": install Redis 7 (Debian: apt-get install"
                            + " redis-server) or point the build at it with -Dfrontrun.redis.server=/path/to/redis-server");
        }
        StringBuilder failures = new StringBuilder();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = freePort();
            Path directory = Files.createTempDirectory("frontrun-redis");
            Process process = new ProcessBuilder(
                            binary,
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no",
                            "--dir",
                            directory.toString())
                    .redirectErrorStream(true)
                    .start();
            RedisTestServer server = new RedisTestServer(process, port, directory);
            String log = server.awaitReady();
            if (log == null) {
                return server;
            }
            server.close();
            failures.append(log);
        }
        throw new IllegalStateException("redis-server did not start:\n" + failures);
    }

    public int port() {
        return port;
    }

    /** Reads the server's log until it accepts connections and answers PING (null), or until it ends (its log). */
    private String awaitReady() throws IOException {
        BufferedReader log =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder lines = new StringBuilder();
        for (String line = log.readLine(); line != null; line = log.readLine()) {
            lines.append(line).append('\n');
            if (line.contains("Ready to accept connections")) {
                Thread drain = new Thread(() -> drain(log), "redis-server log");
                drain.setDaemon(true);
                drain.start();
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                    String answer = new BufferedReader(
                                    new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                            .readLine();
                    if (!"+PONG".equals(answer)) {
                        throw new IllegalStateException("redis-server on port " + port + " answered " + answer);
                    }
                }
                return null;
            }
        }
        return lines.toString();
    }

    private static void drain(BufferedReader log) {
        try {
            while (log.readLine() != null) {
                // read so the server never blocks on a full pipe
            }
        } catch (IOException e) {
            // the server ended
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops the server and removes its directory. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is no failure of the tests
        }
    }
}

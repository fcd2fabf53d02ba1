package dev.frontrun.spring;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * A real {@code redis-server} of a test class's own, on a free port, without persistence, known ready when its log says
 * it accepts connections. The binary is the one the build installed ({@code -Dfrontrun.redis.server}).
 */
final class LocalRedisServer implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path directory;

    private LocalRedisServer(Process process, int port, Path directory) {
        this.process = process;
        this.port = port;
        this.directory = directory;
    }

    static LocalRedisServer start() throws IOException {
        String binary = System.getProperty("frontrun.redis.server", "/usr/bin/redis-server");
        if (!Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException("no redis-server at " + binary + ": install Redis 7 (Debian: apt-get"
                    + " install redis-server) or point the build at it with -Dfrontrun.redis.server=/path");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
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
        BufferedReader log =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = log.readLine(); line != null; line = log.readLine()) {
            seen.append(line).append('\n');
            if (line.contains("Ready to accept connections")) {
                Thread drain = new Thread(() -> drain(log), "redis-server log");
                drain.setDaemon(true);
                drain.start();
                return new LocalRedisServer(process, port, directory);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not start:\n" + seen);
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

    int port() {
        return port;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        process.waitFor();
        try (var files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

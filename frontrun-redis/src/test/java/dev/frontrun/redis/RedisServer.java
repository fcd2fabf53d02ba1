package dev.frontrun.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code redis-server} of the tests' own, on a free port, without persistence: started and known ready when
 * its log says it accepts connections and it answers {@code PING}. The binary is the one the build installed
 * ({@code -Dfrontrun.redis.server}, by default {@code /usr/bin/redis-server}).
 */
final class RedisServer implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path directory;

    private RedisServer(Process process, int port, Path directory) {
        this.process = process;
        this.port = port;
        this.directory = directory;
    }

    static RedisServer start() throws IOException {
        String binary = System.getProperty("frontrun.redis.server", "/usr/bin/redis-server");
        if (!Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException(
                    "no redis-server at " + binary + ": install Redis 7 (Debian: apt-get install"
                            + " redis-server) or point the build at it with -Dfrontrun.redis.server=/path/to/redis-server");
        }
        List<String> failures = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
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
                            directory.toString(),
                            "--loglevel",
                            "notice")
                    .redirectErrorStream(true)
                    .start();
            String log = awaitReady(process);
            if (log == null) {
                RedisServer server = new RedisServer(process, port, directory);
                try (RespClient client = new RespClient("127.0.0.1", port)) {
                    if (!"PONG".equals(client.call("PING"))) {
                        throw new IllegalStateException("redis-server on port " + port + " did not answer PING");
                    }
                }
                return server;
            }
            process.destroyForcibly();
            failures.add(log);
        }
        throw new IllegalStateException("redis-server did not start: " + failures);
    }

    /** Reads the server's log until it accepts connections (null) or ends (its log, as the failure). */
    private static String awaitReady(Process process) throws IOException {
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder log = new StringBuilder();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            log.append(line).append('\n');
            if (line.contains("Ready to accept connections")) {
                Thread drain = new Thread(() -> drain(reader), "redis-server log");
                drain.setDaemon(true);
                drain.start();
                return null;
            }
        }
        return log.toString();
    }

    private static void drain(BufferedReader reader) {
        try {
            while (reader.readLine() != null) {
                // the server's log is not needed once it is ready; read so it never blocks on a full pipe
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

    int port() {
        return port;
    }

    FrontrunRedis frontrun() {
        return FrontrunRedis.at("127.0.0.1", port);
    }

    RespClient client() throws IOException {
        return new RespClient("127.0.0.1", port);
    }

    /** Empties every database (between tests). */
    void flushAll() throws IOException {
        try (RespClient client = client()) {
            client.call("FLUSHALL");
            client.call("SCRIPT", "FLUSH");
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        process.waitFor();
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
}

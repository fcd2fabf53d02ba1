package dev.frontrun.demo.petclinic;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The Redis the application counts online bookings in, for the tests and the race demo: a real {@code redis-server}
 * of the JVM's own on a free port of 127.0.0.1, without persistence, started on first use and stopped when the JVM
 * ends. The binary is the one the build installed ({@code -Dfrontrun.redis.server}, by default
 * {@code /usr/bin/redis-server}).
 *
 * <p>With Frontrun's native layer preloaded, the server's port is left out of the requests it watches, as the
 * database's is: the commands sent to it are explored by frontrun-redis, key by key, and the layer would otherwise
 * count the Lettuce client's writes (made on Netty's threads) and the restore's own as requests to another service
 * that no explored thread sent.
 */
public final class TestRedis {

    /** The online bookings a day each owner may make in the tests and the demo. */
    public static final int DAILY_LIMIT = 1;

    private final Process process;
    private final int port;
    private final Path directory;

    private TestRedis(Process process, int port, Path directory) {
        this.process = process;
        this.port = port;
        this.directory = directory;
    }

    private static final class Holder {
        static final TestRedis SERVER = start();
    }

    /** The JVM's server, started on first use. */
    public static TestRedis server() {
        return Holder.SERVER;
    }

    /**
     * Points the application's Redis at the server, on {@code database} (a variant's own, so that the counters of
     * owners with the same ids in two variants' databases stay apart), and sets the daily limit.
     */
    public static void register(DynamicPropertyRegistry registry, int database) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> server().port());
        registry.add("spring.data.redis.database", () -> database);
        registry.add("petclinic.online-bookings.daily-limit", () -> DAILY_LIMIT);
    }

    /** The application's properties for the server's database 0 and the daily limit ({@code name=value}). */
    public String[] properties() {
        return new String[] {
            "spring.data.redis.host=127.0.0.1",
            "spring.data.redis.port=" + port,
            "petclinic.online-bookings.daily-limit=" + DAILY_LIMIT
        };
    }

    public int port() {
        return port;
    }

    private static TestRedis start() {
        String binary = System.getProperty("frontrun.redis.server", "/usr/bin/redis-server");
        if (!Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException(
                    "no redis-server at " + binary + ": install Redis 7 (Debian: apt-get"
                            + " install redis-server) or point the build at it with -Dfrontrun.redis.server=/path/to/redis-server");
        }
        StringBuilder failures = new StringBuilder();
        for (int attempt = 0; attempt < 5; attempt++) { // a free port may be taken before the server binds it
            try {
                int port = freePort();
                Path directory = Files.createTempDirectory("petclinic-redis");
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
                TestRedis server = new TestRedis(process, port, directory);
                Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "petclinic redis-server stop"));
                String log = server.awaitReady();
                if (log == null) {
                    return server;
                }
                server.stop();
                failures.append(log);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("redis-server did not start:\n" + failures);
    }

    /**
     * Reads the server's log until it accepts connections, then checks it answers {@code PING}: null when it is ready,
     * or its log when it ended.
     */
    private String awaitReady() throws IOException {
        BufferedReader log =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder lines = new StringBuilder();
        for (String line = log.readLine(); line != null; line = log.readLine()) {
            lines.append(line).append('\n');
            if (line.contains("Ready to accept connections")) {
                Thread drain = new Thread(() -> drain(log), "petclinic redis-server log");
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
    private void stop() {
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

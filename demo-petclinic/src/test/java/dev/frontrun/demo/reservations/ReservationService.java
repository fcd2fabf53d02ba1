package dev.frontrun.demo.reservations;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reservation service the PetClinic books visits' days with — another team's service, so in a
 * package of its own, outside the application's instrumented packages — run in the test JVM by the JDK's
 * {@code HttpServer} on 127.0.0.1 (the application reaches it over a real socket): one slot per day.
 * {@code GET /slots/{day}} answers {@code booked/capacity}, {@code PUT /slots/{day}} sets the booked
 * count, {@code POST /slots/{day}/reserve} takes a slot or answers 409.
 */
public final class ReservationService implements AutoCloseable {

    /** Slots per day. */
    public static final int CAPACITY = 1;

    private final HttpServer server;
    private final Map<LocalDate, Integer> booked = new ConcurrentHashMap<>();

    private ReservationService(HttpServer server) {
        this.server = server;
        server.createContext("/slots/", this::handle);
        server.start();
    }

    public static ReservationService start() {
        // the JDK's server writes an answer's headers and body apart: with Nagle's algorithm on, the body
        // waits for the client's delayed ACK (40 ms on Linux) and every call would cost that
        System.setProperty("sun.net.httpserver.nodelay", "true");
        try {
            return new ReservationService(
                    HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL the application is configured with ({@code petclinic.reservations.url}). */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The service's endpoint as Frontrun names it. */
    public String endpoint() {
        return "socket:127.0.0.1:" + server.getAddress().getPort();
    }

    /** How many slots of {@code day} are booked (read directly, not over HTTP). */
    public int booked(LocalDate day) {
        return booked.getOrDefault(day, 0);
    }

    /** Frees every slot of {@code day} (each execution of an exploration starts from none booked). */
    public void free(LocalDate day) {
        booked.remove(day);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String[] path = exchange.getRequestURI().getPath().split("/"); // "", "slots", day[, "reserve"]
            LocalDate day = LocalDate.parse(path[2]);
            String method = exchange.getRequestMethod();
            if (method.equals("POST") && path.length == 4 && path[3].equals("reserve")) {
                boolean taken = booked.merge(day, 1, Integer::sum) <= CAPACITY;
                if (!taken) {
                    booked.merge(day, -1, Integer::sum);
                }
                answer(exchange, taken ? 200 : 409, "");
            } else if (method.equals("PUT")) {
                booked.put(
                        day,
                        Integer.parseInt(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII)
                                .trim()));
                answer(exchange, 200, "");
            } else {
                answer(exchange, 200, booked(day) + "/" + CAPACITY);
            }
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

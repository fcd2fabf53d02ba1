package dev.frontrun.nativeio.endpoints;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stateful HTTP service in the test JVM (the JDK's {@code HttpServer} on 127.0.0.1): {@code GET
 * /counter} answers the value, {@code PUT /counter} sets it. Its clients' {@link #increment()} reads,
 * adds one and writes back over two requests: the lost update Frontrun must find through the sockets.
 */
final class CounterService implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger value = new AtomicInteger();

    private CounterService(HttpServer server) {
        this.server = server;
        server.createContext("/counter", this::handle);
        server.start();
    }

    static CounterService start() throws IOException {
        return new CounterService(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** The counter as the service holds it (read directly, not over HTTP). */
    int value() {
        return value.get();
    }

    void reset() {
        value.set(0);
    }

    /** A client's read-modify-write over HTTP: GET, add one, PUT. */
    void increment() throws IOException {
        int current = Integer.parseInt(call("GET", null));
        call("PUT", Integer.toString(current + 1));
    }

    private String call(String method, String body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port() + "/counter").openConnection();
        c.setRequestMethod(method);
        if (body != null) {
            c.setDoOutput(true);
            try (OutputStream out = c.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.US_ASCII));
            }
        }
        if (c.getResponseCode() != 200) {
            throw new IOException(method + " /counter answered " + c.getResponseCode());
        }
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (exchange.getRequestMethod().equals("PUT")) {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                exchange.getRequestBody().transferTo(body);
                value.set(Integer.parseInt(body.toString(StandardCharsets.US_ASCII)));
            }
            byte[] answer = Integer.toString(value.get()).getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package dev.frontrun.testing.browser;

import dev.frontrun.internal.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium driven over the DevTools protocol, for tests that check what a person sees in a
 * page: open a file, run a script in it, click where an element is drawn, take a screenshot. Talks
 * to the browser through the JDK's own WebSocket client on loopback, so it needs nothing but the
 * {@code chromium} binary (Debian's package, which the engine's build installs). Starts Chromium as
 * this machine's notes say it runs here: as root without sandbox, no GPU, no background networking,
 * a new empty profile.
 *
 * <pre>{@code
 * try (Chromium browser = Chromium.start(Chromium.binary(), profileDir)) {
 *     Chromium.Page page = browser.open(file.toUri(), 1400, 900);
 *     Object title = page.evaluate("document.title");
 * }
 * }</pre>
 */
public final class Chromium implements AutoCloseable {

    /** How long any single step (start, one command, one event) may take before the test fails. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process process;
    private final StringBuffer log;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final BlockingQueue<Map<String, Object>> events = new LinkedBlockingQueue<>();

    private Chromium(Process process, StringBuffer log, WebSocket.Builder builder, URI endpoint) throws Exception {
        this.process = process;
        this.log = log;
        this.socket = builder.buildAsync(endpoint, new Listener()).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    /** The browser binary: {@code -Dfrontrun.chromium}, else Debian's {@code /usr/bin/chromium}. */
    public static Path binary() {
        return Path.of(System.getProperty("frontrun.chromium", "/usr/bin/chromium"));
    }

    /** Starts {@code chromium} headless with a new profile in {@code profile} (created, should be empty). */
    public static Chromium start(Path chromium, Path profile) throws Exception {
        if (!Files.isExecutable(chromium)) {
            throw new IllegalStateException("no Chromium at " + chromium + ": the engine's build installs Debian's"
                    + " chromium package (frontrun-engine/src/test/browser/install-chromium.sh, as root);"
                    + " elsewhere install Chromium and point -Dfrontrun.chromium at it");
        }
        Files.createDirectories(profile);
        List<String> command = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank"));
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        StringBuffer log = new StringBuffer();
        CompletableFuture<String> endpoint = new CompletableFuture<>();
        Thread reader = new Thread(() -> readLog(process, log, endpoint), "chromium-log");
        reader.setDaemon(true);
        reader.start();
        try {
            String ws = endpoint.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return new Chromium(process, log, HttpClient.newHttpClient().newWebSocketBuilder(), URI.create(ws));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("Chromium did not open its DevTools endpoint: " + command + "\n" + log, e);
        }
    }

    private static void readLog(Process process, StringBuffer log, CompletableFuture<String> endpoint) {
        try (BufferedReader err =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = err.readLine(); line != null; line = err.readLine()) {
                log.append(line).append('\n');
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    endpoint.complete(m.group(1));
                }
            }
        } catch (IOException e) {
            log.append("(reading the log failed: ").append(e).append(")\n");
        } finally {
            endpoint.completeExceptionally(new IllegalStateException("Chromium ended (" + exit(process) + ")"));
        }
    }

    private static String exit(Process process) {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? "exit code " + process.exitValue() : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Opens {@code url} in a new tab of {@code width} × {@code height} CSS pixels and waits until it has loaded. */
    public Page open(URI url, int width, int height) throws Exception {
        String target = (String)
                send(null, "Target.createTarget", "{\"url\":\"about:blank\"}").get("targetId");
        String session = (String)
                send(null, "Target.attachToTarget", "{\"targetId\":" + Json.quote(target) + ",\"flatten\":true}")
                        .get("sessionId");
        Page page = new Page(session);
        send(
                session,
                "Emulation.setDeviceMetricsOverride",
                "{\"width\":" + width + ",\"height\":" + height + ",\"deviceScaleFactor\":1,\"mobile\":false}");
        send(session, "Page.enable", "{}");
        send(session, "Page.navigate", "{\"url\":" + Json.quote(url.toString()) + "}");
        awaitEvent(session, "Page.loadEventFired");
        return page;
    }

    /** What Chromium wrote to its standard error so far, for failure messages. */
    public String log() {
        return log.toString();
    }

    /** Asks the browser to quit (so it tidies its profile up), and ends it if it does not within a while. */
    @Override
    public void close() throws Exception {
        try {
            socket.sendText("{\"id\":" + ids.incrementAndGet() + ",\"method\":\"Browser.close\",\"params\":{}}", true)
                    .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception notAnswered) {
            // the process is ended below either way
        } finally {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
                }
            }
            socket.abort();
        }
    }

    /** A tab, attached as its own DevTools session. */
    public final class Page {

        private final String session;

        private Page(String session) {
            this.session = session;
        }

        /**
         * The value of the JavaScript {@code expression} (awaited if it is a promise), as JSON values:
         * maps, lists, strings, doubles, booleans or null. A script error fails with the browser's message.
         */
        public Object evaluate(String expression) throws Exception {
            Map<String, Object> result = send(
                    session,
                    "Runtime.evaluate",
                    "{\"expression\":" + Json.quote(expression) + ",\"returnByValue\":true,\"awaitPromise\":true}");
            if (result.get("exceptionDetails") != null) {
                throw new AssertionError(
                        "the script failed in the page: " + result.get("exceptionDetails") + "\nscript: " + expression);
            }
            return ((Map<?, ?>) result.get("result")).get("value");
        }

        /** A left click with the mouse at ({@code x}, {@code y}) of the viewport, as a person would click. */
        public void click(double x, double y) throws Exception {
            for (String type : List.of("mouseMoved", "mousePressed", "mouseReleased")) {
                send(
                        session,
                        "Input.dispatchMouseEvent",
                        "{\"type\":\"" + type + "\",\"x\":" + x + ",\"y\":" + y
                                + (type.equals("mouseMoved") ? "" : ",\"button\":\"left\",\"clickCount\":1") + "}");
            }
        }

        /** A PNG of the viewport. */
        public byte[] screenshot() throws Exception {
            String data = (String) send(session, "Page.captureScreenshot", "{\"format\":\"png\"}")
                    .get("data");
            return Base64.getDecoder().decode(data);
        }
    }

    private Map<String, Object> send(String session, String method, String params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        pending.put(id, answer);
        String message = "{\"id\":" + id + ",\"method\":" + Json.quote(method) + ",\"params\":" + params
                + (session == null ? "" : ",\"sessionId\":" + Json.quote(session)) + "}";
        socket.sendText(message, true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        Map<String, Object> response;
        try {
            response = answer.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("Chromium did not answer " + method + " within " + PATIENCE + "\n" + log, e);
        } finally {
            pending.remove(id);
        }
        if (response.get("error") != null) {
            throw new AssertionError("Chromium refused " + method + " " + params + ": " + response.get("error"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) response.get("result");
        return result;
    }

    private void awaitEvent(String session, String method) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            Map<String, Object> event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new AssertionError("no " + method + " from Chromium within " + PATIENCE + "\n" + log);
            }
            if (method.equals(event.get("method")) && session.equals(event.get("sessionId"))) {
                return;
            }
        }
    }

    /** Puts answers with their commands and everything else in the event queue. */
    private final class Listener implements WebSocket.Listener {

        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                @SuppressWarnings("unchecked")
                Map<String, Object> message = (Map<String, Object>) Json.parse(partial.toString());
                partial.setLength(0);
                Object id = message.get("id");
                CompletableFuture<Map<String, Object>> answer =
                        id == null ? null : pending.get(((Number) id).intValue());
                if (answer != null) {
                    answer.complete(message);
                } else if (id == null) {
                    events.add(message);
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}

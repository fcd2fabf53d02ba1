package dev.frontrun.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL frontend protocol as the preloaded library reads it from the bytes a socket write
 * carries, in a JVM Surefire started preloaded: messages split over writes at every byte, several
 * messages in one write, the startup packet without a type byte after an SSLRequest, the bound on
 * SQL text, a switch to TLS, and a stream that is not PostgreSQL at all.
 */
@Tag("preloaded")
class PgWirePreloadedTest {

    private ServerSocket server;
    private Thread sink;
    private PortWatch watch;
    private PgRecording recording;

    @BeforeAll
    static void preloaded() {
        assumeTrue(Platform.isLinux(), "LD_PRELOAD interception is Linux-only");
        NativeIo.requireActive();
    }

    @BeforeEach
    void listen() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        sink = new Thread(this::discardAll, "sink");
        sink.setDaemon(true);
        sink.start();
        watch = NativeIo.watchPort(server.getLocalPort());
        recording = NativeIo.recordPgMessages();
        recording.drain();
    }

    @AfterEach
    void close() throws IOException {
        recording.close();
        watch.close();
        server.close();
    }

    private void discardAll() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> {
                    try (InputStream in = s.getInputStream()) {
                        in.transferTo(OutputStream.nullOutputStream());
                    } catch (IOException ignored) {
                        // the client closed
                    }
                });
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Sends {@code bytes} over a new connection in writes of the given sizes (cycled), and closes it. */
    private void send(byte[] bytes, int... writeSizes) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
            OutputStream out = socket.getOutputStream();
            int at = 0;
            for (int i = 0; at < bytes.length; i++) {
                int n = Math.min(writeSizes[i % writeSizes.length], bytes.length - at);
                out.write(bytes, at, n);
                at += n;
            }
        }
    }

    @Test
    void messagesSplitAtEveryByteAreJoinedAndRead() throws IOException {
        byte[] stream = concat(
                sslRequest(),
                startup("user", "app", "application_name", "frontrun"),
                query("select 1; select 2"),
                parse("S_1", "update t set a = $1 where id = $2"),
                bind("", "S_1"),
                execute(),
                sync());
        send(stream, 1);
        int me = NativeIo.currentThreadId();
        List<PgMessage> messages = recording.drain();
        assertThat(messages)
                .extracting(
                        PgMessage::kind,
                        PgMessage::statementName,
                        PgMessage::sql,
                        PgMessage::truncated,
                        PgMessage::frontrunOwn,
                        PgMessage::threadId,
                        PgMessage::message)
                .containsExactly(
                        tuple(PgMessage.Kind.QUERY, null, "select 1; select 2", false, true, me, 1),
                        tuple(PgMessage.Kind.PARSE, "S_1", "update t set a = $1 where id = $2", false, true, me, 2),
                        tuple(PgMessage.Kind.BIND, "S_1", null, false, true, me, 3));
    }

    @Test
    void manyMessagesInOneWriteAndAnOverlongTextInRandomPieces() throws IOException {
        String longSql = "select '" + "x".repeat(5000) + "'";
        byte[] stream = concat(
                startup("user", "app", "application_name", "someone else"),
                parse("", "select $1"),
                bind("", ""),
                parse("", longSql),
                bind("p", ""),
                execute(),
                sync());
        Random random = new Random(42);
        int[] sizes = random.ints(64, 1, 700).toArray();
        send(stream, sizes);
        List<PgMessage> messages = recording.drain();
        assertThat(messages).hasSize(4);
        assertThat(messages).allSatisfy(m -> assertThat(m.frontrunOwn()).isFalse());
        assertThat(messages.get(0).sql()).isEqualTo("select $1");
        assertThat(messages.get(1).kind()).isEqualTo(PgMessage.Kind.BIND);
        assertThat(messages.get(1).statementName()).isEmpty();
        assertThat(messages.get(2).truncated()).isTrue();
        assertThat(messages.get(2).sql()).isEqualTo(longSql.substring(0, PgMessage.SQL_BOUND));
        assertThat(messages.get(3).statementName())
                .as("Bind's portal is skipped, its statement read")
                .isEmpty();

        send(concat(startup("user", "app"), query("select 3")), 100_000);
        assertThat(recording.drain()).extracting(PgMessage::sql).containsExactly("select 3");
        assertThat(recording.dropped()).isZero();
    }

    @Test
    void aSwitchToTlsAndAStreamThatIsNotPostgresAreReportedUnreadable() throws IOException {
        send(concat(sslRequest(), new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5}), 3);
        send("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 7);
        assertThat(recording.drain())
                .extracting(PgMessage::kind)
                .containsExactly(PgMessage.Kind.TLS, PgMessage.Kind.UNREADABLE);
    }

    @Test
    void aSecondRecordingAtOnceIsRefusedBecauseItWouldStealTheFirstOnesMessages() throws IOException {
        assertThatThrownBy(NativeIo::recordPgMessages)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("one at a time per JVM");
        send(concat(startup("user", "app"), query("select 4")), 1000);
        assertThat(recording.drain())
                .extracting(PgMessage::sql)
                .as("the first one still records")
                .containsExactly("select 4");
    }

    // ---- frontend messages, as the protocol defines them ----

    private static byte[] sslRequest() {
        return concat(int32(8), int32(80877103));
    }

    private static byte[] startup(String... parameters) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(int32(196608));
        for (String p : parameters) {
            body.writeBytes(cstring(p));
        }
        body.write(0);
        return concat(int32(body.size() + 4), body.toByteArray());
    }

    private static byte[] query(String sql) {
        return message('Q', cstring(sql));
    }

    private static byte[] parse(String name, String sql) {
        return message('P', concat(cstring(name), cstring(sql), new byte[] {0, 0}));
    }

    private static byte[] bind(String portal, String statement) {
        return message('B', concat(cstring(portal), cstring(statement), new byte[] {0, 0, 0, 0, 0, 0}));
    }

    private static byte[] execute() {
        return message('E', concat(cstring(""), int32(0)));
    }

    private static byte[] sync() {
        return message('S', new byte[0]);
    }

    private static byte[] message(char type, byte[] body) {
        return concat(new byte[] {(byte) type}, int32(body.length + 4), body);
    }

    private static byte[] cstring(String s) {
        return concat(s.getBytes(StandardCharsets.UTF_8), new byte[] {0});
    }

    private static byte[] int32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}

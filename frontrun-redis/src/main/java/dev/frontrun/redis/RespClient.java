package dev.frontrun.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Frontrun's own connection to Redis, for the snapshot and the restore. A few lines of RESP over a socket, so that
 * putting Redis back neither needs the application's client nor passes through the feed that explores it.
 */
final class RespClient implements AutoCloseable {

    /** An error reply of the server. */
    static final class ServerError extends IOException {
        ServerError(String message) {
            super(message);
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    RespClient(String host, int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(60_000);
        socket.setTcpNoDelay(true);
        out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** Sends one command and reads its reply. */
    Object call(Object... words) throws IOException {
        send(words);
        flush();
        return read();
    }

    /** Queues one command; its reply is read by {@link #read} after {@link #flush}. */
    void send(Object... words) throws IOException {
        out.write(('*' + Integer.toString(words.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object word : words) {
            byte[] bytes = word instanceof byte[] b ? b : String.valueOf(word).getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
    }

    void flush() throws IOException {
        out.flush();
    }

    /** The next reply: a String (status), Long, byte[] (bulk, or null), a List of replies, or a thrown ServerError. */
    Object read() throws IOException {
        int type = in.read();
        String line = line();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new ServerError(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length);
                in.readNBytes(2);
                return bytes;
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    try {
                        items.add(read());
                    } catch (ServerError e) {
                        items.add(e);
                    }
                }
                return items;
            }
            case -1:
                throw new EOFException("Redis closed the connection");
            default:
                throw new IOException("unexpected reply type '" + (char) type + "' from Redis");
        }
    }

    private String line() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("Redis closed the connection");
            }
            s.append((char) c);
        }
        in.read();
        return s.toString();
    }

    static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

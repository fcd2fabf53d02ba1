package dev.frontrun.nativeio;

import java.util.Objects;

/**
 * A PostgreSQL frontend message a thread of this process wrote to a watched port, read at the libc
 * level beneath the JDBC driver, or a note that the stream can no longer be read.
 *
 * @param origin        which thread wrote it, on which socket and connection, as which message
 * @param statementName the prepared statement a {@link Kind#PARSE} creates or a {@link Kind#BIND} runs
 *                      ({@code ""} is the unnamed one); null for the other kinds
 * @param sql           the SQL text of a {@link Kind#QUERY} or {@link Kind#PARSE}; null for the others
 * @param truncated     the SQL text (or name) went on past the recorded bound
 *                      ({@value #SQL_BOUND} bytes of SQL): {@code sql} is its beginning
 * @param frontrunOwn   sent on a connection Frontrun opened for itself (its startup packet set
 *                      {@code application_name} to {@value #FRONTRUN_APPLICATION}): catalog lookups, lock probes
 */
public record PgMessage(
        Origin origin, Kind kind, String statementName, String sql, boolean truncated, boolean frontrunOwn) {

    /** The {@code application_name} Frontrun's own connections announce themselves with. */
    public static final String FRONTRUN_APPLICATION = "frontrun";

    /** Bytes of SQL text recorded per message; a longer text is {@link #truncated()}. */
    public static final int SQL_BOUND = 2048;

    /**
     * Where a message came from, so it can be matched to the thread and connection that sent it.
     *
     * @param threadId   the kernel thread id (gettid) of the thread that wrote it
     * @param connection the process-wide number of the connection (unlike fd numbers, never reused)
     * @param message    the message's number on its connection, from 1
     */
    public record Origin(int threadId, int fd, int port, int connection, int message) {}

    public PgMessage {
        Objects.requireNonNull(origin, "origin");
    }

    public int threadId() {
        return origin.threadId();
    }

    public int fd() {
        return origin.fd();
    }

    public int port() {
        return origin.port();
    }

    public int connection() {
        return origin.connection();
    }

    public int message() {
        return origin.message();
    }

    /** What was written. */
    public enum Kind {
        /** A simple-protocol Query: SQL text, possibly several statements, run at once. */
        QUERY,
        /** An extended-protocol Parse: SQL text prepared as a (named or unnamed) statement. */
        PARSE,
        /** An extended-protocol Bind: one execution of a prepared statement, by name. */
        BIND,
        /** The connection switched to TLS: what follows cannot be read. */
        TLS,
        /** The stream stopped parsing as the PostgreSQL protocol: what follows cannot be read. */
        UNREADABLE;

        static Kind of(char type) {
            return switch (type) {
                case 'Q' -> QUERY;
                case 'P' -> PARSE;
                case 'B' -> BIND;
                case '~' -> TLS;
                case '!' -> UNREADABLE;
                default -> throw new IllegalStateException("unknown native pg message type '" + type + "'");
            };
        }
    }
}

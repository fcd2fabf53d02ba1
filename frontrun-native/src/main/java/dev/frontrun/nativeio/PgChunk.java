package dev.frontrun.nativeio;

/**
 * One chunk of a PostgreSQL frontend message as the native library recorded it
 * ({@code struct frontrun_io_pg_event}); {@link PgRecording} joins chunks into {@link PgMessage}s.
 */
record PgChunk(PgMessage.Origin origin, char type, byte field, byte flags, int offset, byte[] data) {

    static final byte NAME = 0;
    static final byte TEXT = 1;
    private static final byte END = 1;
    private static final byte TRUNCATED = 2;
    private static final byte OWN = 4;

    boolean end() {
        return (flags & END) != 0;
    }

    boolean own() {
        return (flags & OWN) != 0;
    }

    boolean truncated() {
        return (flags & TRUNCATED) != 0;
    }
}

package dev.frontrun.nativeio;

import com.sun.jna.Memory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the native library recording the PostgreSQL frontend messages this process writes to
 * watched ports, until closed; see {@link NativeIo#recordPgMessages()}. {@link #drain()} joins the
 * chunks the library recorded into whole messages: a message split over several writes is handed
 * out once its last chunk has been drained. The native buffer is process-wide, with one consumer:
 * one recording drains at a time.
 */
public final class PgRecording implements AutoCloseable {

    private static final int CHUNKS_PER_CALL = 512;

    private final FrontrunIoLibrary library;
    /** messages whose chunks have not all arrived, by (connection, message) */
    private final Map<Long, Partial> partial = new LinkedHashMap<>();

    private final long droppedAtStart;
    /** where the native drain copies chunks to; reused, as an exploration drains several times per execution */
    private final Memory buffer = new Memory((long) NativeLayout.PG_EVENT_SIZE * CHUNKS_PER_CALL);

    private boolean closed;

    PgRecording(FrontrunIoLibrary library) {
        this.library = library;
        this.droppedAtStart = library.frontrun_io_pg_dropped();
    }

    /** The messages completed since the last drain, in the order their last chunk was written. */
    public synchronized List<PgMessage> drain() {
        List<PgMessage> done = new ArrayList<>();
        int n;
        do {
            n = library.frontrun_io_drain_pg(buffer, CHUNKS_PER_CALL);
            for (int i = 0; i < n; i++) {
                PgChunk chunk = NativeLayout.pgChunk(buffer, (long) i * NativeLayout.PG_EVENT_SIZE);
                long key = (long) chunk.origin().connection() << 32
                        | (chunk.origin().message() & 0xffffffffL);
                Partial message = partial.computeIfAbsent(key, k -> new Partial(chunk));
                if (message.add(chunk)) {
                    partial.remove(key);
                    done.add(message.complete());
                }
            }
        } while (n == CHUNKS_PER_CALL);
        return done;
    }

    /**
     * Chunks lost since this recording started because the native buffer was full. A consumer must
     * treat a rise as "messages were sent that I did not see", never as none.
     */
    public long dropped() {
        return library.frontrun_io_pg_dropped() - droppedAtStart;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            library.frontrun_io_record_pg(0);
        }
    }

    /** The chunks of one message so far. */
    private static final class Partial {
        private final PgChunk first;
        private final PgMessage.Kind kind;
        private final ByteArrayOutputStream name = new ByteArrayOutputStream();
        private final ByteArrayOutputStream text = new ByteArrayOutputStream();
        private boolean nameEnded;
        private boolean textEnded;
        private boolean truncated;

        Partial(PgChunk first) {
            this.first = first;
            this.kind = PgMessage.Kind.of(first.type());
        }

        /** Adds a chunk; true when the message is complete. */
        boolean add(PgChunk chunk) {
            ByteArrayOutputStream field = chunk.field() == PgChunk.NAME ? name : text;
            field.write(chunk.data(), 0, chunk.data().length);
            if (chunk.end()) {
                truncated |= chunk.truncated();
                if (chunk.field() == PgChunk.NAME) {
                    nameEnded = true;
                } else {
                    textEnded = true;
                }
            }
            return switch (kind) {
                case QUERY, TLS, UNREADABLE -> textEnded;
                case PARSE -> nameEnded && textEnded;
                case BIND -> nameEnded;
            };
        }

        PgMessage complete() {
            boolean named = kind == PgMessage.Kind.PARSE || kind == PgMessage.Kind.BIND;
            boolean hasSql = kind == PgMessage.Kind.PARSE || kind == PgMessage.Kind.QUERY;
            return new PgMessage(
                    first.origin(),
                    kind,
                    named ? name.toString(StandardCharsets.UTF_8) : null,
                    hasSql ? text.toString(StandardCharsets.UTF_8) : null,
                    truncated,
                    first.own());
        }
    }
}

/*
 * Follows the bytes a process writes to a tracked socket as the PostgreSQL frontend protocol and,
 * while recording, copies the SQL text of Query and Parse messages and the statement names of Parse
 * and Bind messages into the pg ring (see frontrun_io.h for what is recorded).
 *
 * The stream is followed from the connect on, whether or not anything is recorded, so that a
 * connection opened before a recording started (a pool's) is in sync when it does. Writes may hold
 * several messages or part of one: the state between writes is in the fd's slot, and only the
 * thread writing to the socket touches it. A stream that is not PostgreSQL (HTTP, say) fails the
 * startup packet's length check in its first write and is left alone from then on; a stream that
 * switches to TLS is reported once as unreadable. No allocation, no lock, no call into the JVM.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/* Startup-phase request codes (the int32 after the length of an untyped packet). */
#define PG_SSL_REQUEST 80877103u
#define PG_GSSENC_REQUEST 80877104u
#define PG_PROTOCOL_3 196608u
/* Not a frontend message type: the body of the startup message, key/value strings. */
#define STARTUP_PARAMETERS 0x01
/* No startup packet is anywhere near this long; a typed message may be up to 1 GB. */
#define PG_STARTUP_MAX 10000u
#define PG_MESSAGE_MAX (1u << 30)
/* The first byte of a TLS record carrying a handshake (ClientHello). */
#define TLS_HANDSHAKE 0x16

_Atomic uint32_t frontrun_pg_recording;
static _Atomic uint32_t connections;

void frontrun_pg_reset(struct frontrun_fd *slot) {
    memset(&slot->pg, 0, sizeof slot->pg);
    slot->pg.phase = PG_STARTUP;
    slot->pg.connection = atomic_fetch_add_explicit(&connections, 1, memory_order_relaxed) + 1;
}

/* What the recording of one write needs: whether to record at all, and the event's fixed fields. */
struct sink {
    int on;
    struct frontrun_io_pg_event event;
};

static void emit(struct sink *sink, struct frontrun_pg_state *pg, uint8_t type, uint8_t field, uint8_t flags,
        uint32_t offset, const unsigned char *data, uint32_t length) {
    if (!sink->on) {
        return;
    }
    struct frontrun_io_pg_event *e = &sink->event;
    e->connection = pg->connection;
    e->message = pg->message;
    e->type = type;
    e->field = field;
    e->flags = (uint8_t) (flags | (pg->own ? FRONTRUN_IO_PG_OWN : 0));
    e->offset = offset;
    e->length = length;
    if (length > 0) {
        memcpy(e->data, data, length);
    }
    frontrun_ring_push(&frontrun_pg_events, e);
}

static void unreadable(struct sink *sink, struct frontrun_pg_state *pg, uint8_t why) {
    pg->phase = PG_UNREADABLE;
    emit(sink, pg, why, FRONTRUN_IO_PG_TEXT, FRONTRUN_IO_PG_END, 0, NULL, 0);
}

static uint32_t be32(const uint8_t *b) {
    return (uint32_t) b[0] << 24 | (uint32_t) b[1] << 16 | (uint32_t) b[2] << 8 | b[3];
}

/*
 * Which NUL-terminated string of a message body is recorded as which field: Query's first is the
 * SQL; Parse's first is the statement name and its second the SQL; Bind's first is the portal
 * (skipped) and its second the statement name. -1: skip this string; -2: nothing more to read.
 */
static int field_of(uint8_t type, uint8_t index) {
    switch (type) {
    case STARTUP_PARAMETERS:
        return -1;  /* read (for application_name), never recorded */
    case 'Q':
        return index == 0 ? FRONTRUN_IO_PG_TEXT : -2;
    case 'P':
        return index == 0 ? FRONTRUN_IO_PG_NAME : index == 1 ? FRONTRUN_IO_PG_TEXT : -2;
    case 'B':
        return index == 0 ? -1 : index == 1 ? FRONTRUN_IO_PG_NAME : -2;
    default:
        return -2;
    }
}

/* Startup parameters are key/value strings: tells whether application_name is Frontrun's own. */
static void startup_parameter(struct frontrun_pg_state *pg, const unsigned char *p, size_t len, int ends) {
    static const char KEY[] = "application_name";
    static const char VALUE[] = FRONTRUN_IO_PG_OWN_APPLICATION;
    int is_key = pg->field % 2 == 0;
    const char *want = is_key ? KEY : VALUE;
    size_t want_len = is_key ? sizeof KEY - 1 : sizeof VALUE - 1;
    if (pg->offset == 0) {
        pg->match = 1;
    }
    if (pg->match && (pg->offset + len > want_len || memcmp(want + pg->offset, p, len) != 0)) {
        pg->match = 0;
    }
    if (ends) {
        int whole = pg->match && pg->offset + len == want_len;
        if (is_key) {
            pg->app_key = (uint8_t) whole;
        } else if (pg->app_key) {
            pg->own = (uint8_t) whole;
        }
    }
}

/* Reads up to n body bytes of the current string; returns how many it consumed. */
static size_t read_string(struct sink *sink, struct frontrun_pg_state *pg, const unsigned char *p, size_t n) {
    int field = field_of(pg->type, pg->field);
    const unsigned char *nul = memchr(p, 0, n);
    size_t len = nul != NULL ? (size_t) (nul - p) : n;
    if (pg->type == STARTUP_PARAMETERS) {
        startup_parameter(pg, p, len, nul != NULL);
    }
    if (field >= 0) {
        uint32_t bound = field == FRONTRUN_IO_PG_NAME ? FRONTRUN_IO_PG_NAME_MAX : FRONTRUN_IO_PG_TEXT_MAX;
        size_t keep = pg->offset >= bound ? 0 : len < bound - pg->offset ? len : bound - pg->offset;
        size_t done = 0;
        /* whole chunks now; the last piece goes with the END flag below if the string ends here */
        while (keep - done > FRONTRUN_IO_PG_CHUNK || (keep - done > 0 && nul == NULL)) {
            uint32_t piece = keep - done > FRONTRUN_IO_PG_CHUNK ? FRONTRUN_IO_PG_CHUNK : (uint32_t) (keep - done);
            emit(sink, pg, pg->type, (uint8_t) field, 0, pg->offset + (uint32_t) done, p + done, piece);
            done += piece;
        }
        if (nul != NULL) {
            uint8_t flags = FRONTRUN_IO_PG_END | (pg->offset + len > bound ? FRONTRUN_IO_PG_TRUNCATED : 0);
            emit(sink, pg, pg->type, (uint8_t) field, flags, pg->offset + (uint32_t) done, p + done,
                    (uint32_t) (keep - done));
        }
    }
    if (nul == NULL) {
        pg->offset += (uint32_t) len;
        return len;
    }
    pg->field++;
    pg->offset = 0;
    return len + 1;
}

/* Reads up to n bytes of the current message's body; returns how many it consumed. */
static size_t read_body(struct sink *sink, struct frontrun_pg_state *pg, const unsigned char *p, size_t n) {
    size_t avail = n < pg->remaining ? n : pg->remaining;
    size_t used;
    if (field_of(pg->type, pg->field) == -2) {
        used = avail;  /* nothing more to read in this message: skip the rest */
    } else {
        used = read_string(sink, pg, p, avail);
    }
    pg->remaining -= (uint32_t) used;
    if (pg->remaining == 0) {
        int field = field_of(pg->type, pg->field);
        if (field >= 0 && pg->offset > 0) {
            /* a malformed body without the string's NUL: end the field anyway */
            emit(sink, pg, pg->type, (uint8_t) field, FRONTRUN_IO_PG_END | FRONTRUN_IO_PG_TRUNCATED, pg->offset, NULL, 0);
        }
        pg->type = 0;
    }
    return used;
}

/* Collects header bytes; returns how many it consumed. */
static size_t read_header(struct frontrun_pg_state *pg, uint8_t size, const unsigned char *p, size_t n) {
    size_t want = (size_t) (size - pg->hlen);
    size_t take = n < want ? n : want;
    memcpy(pg->header + pg->hlen, p, take);
    pg->hlen = (uint8_t) (pg->hlen + take);
    return take;
}

static void feed(struct sink *sink, struct frontrun_pg_state *pg, const unsigned char *p, size_t n) {
    while (n > 0 && pg->phase != PG_UNREADABLE) {
        size_t used;
        if (pg->remaining > 0) {
            used = read_body(sink, pg, p, n);
        } else if (pg->phase == PG_STARTUP) {
            if (pg->hlen == 0 && p[0] == TLS_HANDSHAKE) {
                unreadable(sink, pg, FRONTRUN_IO_PG_TLS);  /* the server accepted an SSLRequest */
                return;
            }
            used = read_header(pg, 8, p, n);
            if (pg->hlen == 8) {
                uint32_t length = be32(pg->header);
                uint32_t code = be32(pg->header + 4);
                pg->hlen = 0;
                if (length < 8 || length > PG_STARTUP_MAX) {
                    unreadable(sink, pg, FRONTRUN_IO_PG_LOST);
                    return;
                }
                pg->type = code == PG_PROTOCOL_3 ? STARTUP_PARAMETERS : 0;
                pg->field = 0;
                pg->offset = 0;
                pg->remaining = length - 8;
                if (code != PG_SSL_REQUEST && code != PG_GSSENC_REQUEST) {
                    pg->phase = PG_TYPED;  /* the startup message (or a cancel request) */
                }
            }
        } else {
            used = read_header(pg, 5, p, n);
            if (pg->hlen == 5) {
                uint32_t length = be32(pg->header + 1);
                pg->hlen = 0;
                if (length < 4 || length > PG_MESSAGE_MAX) {
                    unreadable(sink, pg, FRONTRUN_IO_PG_LOST);
                    return;
                }
                pg->type = pg->header[0];
                pg->remaining = length - 4;
                pg->field = 0;
                pg->offset = 0;
                pg->message++;
                if (pg->remaining == 0) {
                    int field = field_of(pg->type, 0);
                    if (field >= 0) {
                        emit(sink, pg, pg->type, (uint8_t) field, FRONTRUN_IO_PG_END | FRONTRUN_IO_PG_TRUNCATED, 0,
                                NULL, 0);
                    }
                    pg->type = 0;
                }
            }
        }
        p += used;
        n -= used;
    }
}

void frontrun_pg_feed(struct frontrun_fd *slot, int fd, const void *buf, size_t count) {
    if (atomic_load_explicit(&slot->state, memory_order_relaxed) != FD_SOCKET || slot->pg.phase == PG_UNREADABLE
            || buf == NULL || count == 0) {
        return;
    }
    int err = errno;
    struct sink sink;
    int32_t port = atomic_load_explicit(&slot->port, memory_order_relaxed);
    sink.on = atomic_load_explicit(&frontrun_pg_recording, memory_order_relaxed) != 0 && frontrun_watched(port);
    if (sink.on) {
        memset(&sink.event, 0, sizeof sink.event);
        sink.event.tid = frontrun_gettid();
        sink.event.fd = fd;
        sink.event.port = port;
    }
    feed(&sink, &slot->pg, (const unsigned char *) buf, count);
    errno = err;
}

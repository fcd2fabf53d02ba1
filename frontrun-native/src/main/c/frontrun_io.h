/*
 * Public C API of libfrontrun_io.so, the LD_PRELOAD interposer beneath JDBC.
 *
 * The library interposes libc socket I/O (connect, read, write, close, poll, send, recv, sendto,
 * recvfrom, sendmsg, recvmsg, readv, writev) and tracks which fds are connected TCP or Unix
 * sockets. Traffic on sockets whose peer port is watched is counted per fd and per thread, and
 * (when enabled) recorded as events in a lock-free ring buffer that the JVM drains. Nothing ever
 * calls back into the JVM: the interposed calls only bump counters and copy a record, so JNA and
 * JVM internals doing their own read/write cannot recurse or deadlock.
 *
 * The layouts below are fixed-size and naturally aligned; the Java bridge
 * (dev.frontrun.nativeio) decodes them by offset. Bump FRONTRUN_IO_MAGIC on any change.
 */
#ifndef FRONTRUN_IO_H
#define FRONTRUN_IO_H

#include <stdint.h>

#define FRONTRUN_IO_API __attribute__((visibility("default")))

/* "FRN" + ABI version 4 (2 added the PostgreSQL wire-protocol messages, 3 the requests to endpoints, 4 the count of requests no explored thread sent). */
#define FRONTRUN_IO_MAGIC 0x46524e04u

/* Unix-domain sockets have no port: they are watched and reported under this port. */
#define FRONTRUN_IO_UNIX_PORT 0

enum frontrun_io_op {
    FRONTRUN_IO_CONNECT = 1,
    FRONTRUN_IO_CLOSE = 2,
    FRONTRUN_IO_POLL = 3,
    FRONTRUN_IO_READ = 4,
    FRONTRUN_IO_RECV = 5,
    FRONTRUN_IO_RECVFROM = 6,
    FRONTRUN_IO_RECVMSG = 7,
    FRONTRUN_IO_READV = 8,
    FRONTRUN_IO_WRITE = 9,
    FRONTRUN_IO_SEND = 10,
    FRONTRUN_IO_SENDTO = 11,
    FRONTRUN_IO_SENDMSG = 12,
    FRONTRUN_IO_WRITEV = 13
};

/* Indexes into a counters array. "out" = write-like calls, "in" = read-like calls. */
enum frontrun_io_counter {
    FRONTRUN_IO_OUT_CALLS = 0,
    FRONTRUN_IO_OUT_BYTES = 1,
    FRONTRUN_IO_IN_CALLS = 2,
    FRONTRUN_IO_IN_BYTES = 3,
    FRONTRUN_IO_POLLS = 4,
    FRONTRUN_IO_CONNECTS = 5,
    FRONTRUN_IO_CLOSES = 6,
    FRONTRUN_IO_NCOUNTERS = 7
};

/* One intercepted call on a watched socket (56 bytes). */
struct frontrun_io_event {
    uint64_t seq;      /* position in the ring: gaps never occur, drops are counted instead */
    int64_t result;    /* the call's return value: bytes moved, or -1 */
    int32_t tid;       /* gettid() of the calling thread */
    int32_t fd;
    int32_t op;        /* enum frontrun_io_op */
    int32_t err;       /* errno when result < 0, else 0 */
    int32_t port;      /* peer port (FRONTRUN_IO_UNIX_PORT for Unix sockets) */
    int32_t family;    /* AF_INET, AF_INET6 or AF_UNIX */
    uint8_t addr[16];  /* peer address: 4 bytes for AF_INET, 16 for AF_INET6, zero for AF_UNIX */
};

/*
 * PostgreSQL frontend messages seen in the bytes written to tracked sockets.
 *
 * Every tracked stream socket's outgoing bytes are followed as the PostgreSQL frontend protocol
 * from its connect on (startup packet without a type byte, SSL/GSS requests, then typed messages);
 * a stream that is not PostgreSQL loses sync within its first write and is ignored from then on.
 * While PostgreSQL messages are being recorded, the interesting fields of Query ('Q'), Parse ('P')
 * and Bind ('B') messages to watched ports are copied, in chunks, into a second ring buffer:
 *   Query: field TEXT (the SQL)
 *   Parse: field NAME (the prepared statement's name, "" = unnamed), then field TEXT (the SQL)
 *   Bind:  field NAME (the prepared statement it executes)
 * Each field ends with exactly one chunk flagged END. A field is captured up to its bound
 * (FRONTRUN_IO_PG_NAME_MAX, FRONTRUN_IO_PG_TEXT_MAX bytes); a longer one ends with END|TRUNCATED.
 * Chunks of one message share (connection, message); a message may span several writes.
 */
#define FRONTRUN_IO_PG_NAME_MAX 63
#define FRONTRUN_IO_PG_TEXT_MAX 2048
#define FRONTRUN_IO_PG_CHUNK 248

/* The type of a pg event: a frontend message type byte, or one of these stream states. */
#define FRONTRUN_IO_PG_TLS '~'   /* the stream switched to TLS after an SSLRequest: unreadable from here */
#define FRONTRUN_IO_PG_LOST '!'  /* the stream stopped parsing as the PostgreSQL protocol */

enum frontrun_io_pg_field { FRONTRUN_IO_PG_NAME = 0, FRONTRUN_IO_PG_TEXT = 1 };

/* OWN: the message was sent on a connection whose startup packet set application_name to
 * FRONTRUN_IO_PG_OWN_APPLICATION, as Frontrun's own connections (catalog lookups, lock probes) do. */
enum frontrun_io_pg_flag { FRONTRUN_IO_PG_END = 1, FRONTRUN_IO_PG_TRUNCATED = 2, FRONTRUN_IO_PG_OWN = 4 };

#define FRONTRUN_IO_PG_OWN_APPLICATION "frontrun"

/* One chunk of a PostgreSQL frontend message (288 bytes). */
struct frontrun_io_pg_event {
    uint64_t seq;          /* position in the pg ring */
    int32_t tid;           /* gettid() of the writing thread */
    int32_t fd;
    int32_t port;          /* peer port */
    uint32_t connection;   /* process-wide number of the connection (fd numbers are reused) */
    uint32_t message;      /* number of the message on its connection, from 1 */
    uint8_t type;          /* 'Q', 'P', 'B', FRONTRUN_IO_PG_TLS or FRONTRUN_IO_PG_LOST */
    uint8_t field;         /* enum frontrun_io_pg_field */
    uint8_t flags;         /* enum frontrun_io_pg_flag */
    uint8_t reserved;
    uint32_t offset;       /* offset of data within the field */
    uint32_t length;       /* bytes in data */
    char data[FRONTRUN_IO_PG_CHUNK];
};

/* A tracked socket and what was counted on it since it was connected (88 bytes). */
struct frontrun_io_socket {
    int32_t fd;
    int32_t port;
    int32_t family;
    int32_t reserved;
    uint8_t addr[16];
    uint64_t counters[FRONTRUN_IO_NCOUNTERS];
};

/* FRONTRUN_IO_MAGIC when this copy of the library is the one the process's read/write/connect/close
 * resolve to (that is, it is preloaded and interposing); 0 otherwise. */
FRONTRUN_IO_API uint32_t frontrun_io_active(void);

/* End-to-end check: writes one byte to a socketpair through the process's `write` symbol and
 * reports whether the interposer saw it. 1 = seen, 0 = not seen, negative = -errno of a failure. */
FRONTRUN_IO_API int32_t frontrun_io_probe(void);

/* The file this copy of the library was loaded from (for diagnostics). */
FRONTRUN_IO_API const char *frontrun_io_library_path(void);

/* The calling thread's kernel thread id. */
FRONTRUN_IO_API int32_t frontrun_io_gettid(void);

/* Counts (on != 0) or stops counting (on == 0) traffic to a peer port. Watches nest: a port stays
 * watched until every watch is released. Returns the port's new watch count, or -1 for a bad port. */
FRONTRUN_IO_API int32_t frontrun_io_watch_port(int32_t port, int32_t on);

/* How many watches a port currently has (0 = not watched), or -1 for a bad port. */
FRONTRUN_IO_API int32_t frontrun_io_watch_count(int32_t port);

/* Starts (on != 0) or stops recording events of watched traffic into the ring buffer. Nests like
 * watches. Returns the new count. */
FRONTRUN_IO_API int32_t frontrun_io_record_events(int32_t on);

/* Moves up to max recorded events, oldest first, into out. Returns how many. */
FRONTRUN_IO_API int32_t frontrun_io_drain(struct frontrun_io_event *out, int32_t max);

/* Events lost because the ring buffer was full, since the library was loaded. */
FRONTRUN_IO_API uint64_t frontrun_io_dropped(void);

/* The calling thread's counters for watched traffic to port, into out[FRONTRUN_IO_NCOUNTERS].
 * Returns 1, or 0 when the thread has none (out is zeroed), or -1 when the thread talked to more
 * distinct watched ports than it keeps counters for (see frontrun_io_thread_ports_max). */
FRONTRUN_IO_API int32_t frontrun_io_thread_counters(int32_t port, uint64_t *out);

/* How many distinct watched ports one thread keeps counters for. */
FRONTRUN_IO_API int32_t frontrun_io_thread_ports_max(void);

/* Copies up to max tracked sockets whose peer port is port into out. Returns how many matched
 * (which may exceed max). */
FRONTRUN_IO_API int32_t frontrun_io_sockets(int32_t port, struct frontrun_io_socket *out, int32_t max);

/* Starts (on != 0) or stops recording PostgreSQL frontend messages sent to watched ports into the
 * pg ring. Nests like watches. Returns the new count. */
FRONTRUN_IO_API int32_t frontrun_io_record_pg(int32_t on);

/* Moves up to max recorded pg chunks, oldest first, into out. Returns how many. */
FRONTRUN_IO_API int32_t frontrun_io_drain_pg(struct frontrun_io_pg_event *out, int32_t max);

/* pg chunks lost because the pg ring was full, since the library was loaded. */
FRONTRUN_IO_API uint64_t frontrun_io_pg_dropped(void);

/*
 * Requests to other services as scheduling points.
 *
 * A request is the first write on a tracked socket since it was connected or since bytes last came
 * back on it (a response): the further writes of the same request, and the reads of its response,
 * are part of it. When requests are fed (frontrun_io_feed_requests), the calling thread is fed
 * (frontrun_io_feed_thread) and the socket's peer port is not ignored (the database's), the hook
 * calls the registered callback on the writing thread BEFORE the bytes leave, with the peer and the
 * first bytes of the request; the callback may park the thread (it is a scheduling point). A
 * negative return fails the write with ECANCELED (the exploration is being torn down). The callback
 * is never entered recursively: socket I/O it does itself is not announced.
 */
typedef int32_t (*frontrun_io_request_fn)(int32_t fd, int32_t family, const uint8_t *addr, int32_t port,
        const void *head, int32_t head_length);

/* Registers the callback (NULL: none). The caller keeps it alive for as long as it is registered. */
FRONTRUN_IO_API void frontrun_io_set_request_callback(frontrun_io_request_fn fn);

/* Starts (on != 0) or stops feeding requests to the callback, process-wide. Nests like watches. */
FRONTRUN_IO_API int32_t frontrun_io_feed_requests(int32_t on);

/* Whether the calling thread's requests are fed (an explored thread). Returns the previous setting. */
FRONTRUN_IO_API int32_t frontrun_io_feed_thread(int32_t on);

/* Stops (on != 0) or resumes (on == 0) announcing requests to a peer port (the database's). Nests. */
FRONTRUN_IO_API int32_t frontrun_io_ignore_port(int32_t port, int32_t on);

/*
 * Requests that were NOT announced while requests are fed: sent by a thread that is not fed (a client
 * that writes on threads of its own, such as the JDK's HttpClient or Netty) to a peer port that is not
 * ignored, since the library was loaded. Stores the last such peer port in *last_port (if not NULL).
 */
FRONTRUN_IO_API uint32_t frontrun_io_unfed_requests(int32_t *last_port);

#endif

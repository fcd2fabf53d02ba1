/*
 * Shared internals of libfrontrun_io.so: the real libc functions, the fd table, the watch table and
 * the accounting entry point used by the hooks.
 */
#ifndef FRONTRUN_INTERNAL_H
#define FRONTRUN_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "frontrun_io.h"

#define FRONTRUN_HIDDEN __attribute__((visibility("hidden")))

/* ---- the real libc functions (real.c) ---------------------------------------------------------- */

enum frontrun_real_fn {
    REAL_CONNECT, REAL_READ, REAL_WRITE, REAL_CLOSE, REAL_POLL,
    REAL_SEND, REAL_RECV, REAL_SENDTO, REAL_RECVFROM, REAL_SENDMSG, REAL_RECVMSG,
    REAL_READV, REAL_WRITEV, REAL_DUP2, REAL_DUP3, REAL_SOCKET, REAL_ACCEPT, REAL_ACCEPT4,
    REAL_COUNT
};

/* Resolved once at load time by a constructor; also lazily, for calls made before it ran. */
extern _Atomic(void *) frontrun_real[REAL_COUNT] FRONTRUN_HIDDEN;

FRONTRUN_HIDDEN void *frontrun_resolve(enum frontrun_real_fn fn);

static inline void *frontrun_real_fn(enum frontrun_real_fn fn) {
    void *f = atomic_load_explicit(&frontrun_real[fn], memory_order_relaxed);
    return f ? f : frontrun_resolve(fn);
}

/* Whether the process's libc entry points resolve to this copy of the library. */
FRONTRUN_HIDDEN int frontrun_is_interposing(void);

/* The process's `write` (what any caller in the process gets), for the end-to-end probe. */
FRONTRUN_HIDDEN void *frontrun_process_write(void);

FRONTRUN_HIDDEN const char *frontrun_self_path(void);

/* ---- fd table (fdtable.c) ---------------------------------------------------------------------- */

#define FRONTRUN_MAX_FDS 65536

enum frontrun_fd_state { FD_UNTRACKED = 0, FD_SOCKET = 1, FD_PROBE = 2 };

/* Where the outgoing byte stream of a socket is, read as the PostgreSQL frontend protocol (pgwire.c).
 * Only the thread writing to the socket touches it, as the protocol needs whole messages in order. */
struct frontrun_pg_state {
    uint8_t phase;        /* enum frontrun_pg_phase */
    uint8_t type;         /* type byte of the message whose body is being read */
    uint8_t hlen;         /* header bytes collected so far */
    uint8_t field;        /* index of the NUL-terminated string of the body being read */
    uint8_t header[8];
    uint32_t remaining;   /* body bytes left in the current message */
    uint32_t offset;      /* bytes of the current string read so far */
    uint32_t message;     /* typed messages seen on the connection */
    uint32_t connection;  /* process-wide connection number */
    uint8_t match;        /* startup parameters: the string read so far equals the one looked for */
    uint8_t app_key;      /* startup parameters: the last key was application_name */
    uint8_t own;          /* the connection announced application_name=FRONTRUN_IO_PG_OWN_APPLICATION */
};

struct frontrun_fd {
    _Atomic uint32_t state;   /* frontrun_fd_state; written last on track, first on untrack */
    _Atomic int32_t port;
    int32_t family;
    uint8_t addr[16];
    _Atomic uint64_t counters[FRONTRUN_IO_NCOUNTERS];
    struct frontrun_pg_state pg;
    _Atomic uint32_t requesting;  /* a request was written and no response byte has been read since */
};

extern struct frontrun_fd frontrun_fds[FRONTRUN_MAX_FDS] FRONTRUN_HIDDEN;

/* The slot of a tracked fd, or NULL: the one check on every intercepted call. */
static inline struct frontrun_fd *frontrun_tracked(int fd) {
    if ((unsigned) fd >= FRONTRUN_MAX_FDS) {
        return NULL;
    }
    struct frontrun_fd *slot = &frontrun_fds[fd];
    return atomic_load_explicit(&slot->state, memory_order_acquire) != FD_UNTRACKED ? slot : NULL;
}

/* Whether the calling process owns the table (false in a vfork() child sharing our memory). */
FRONTRUN_HIDDEN int frontrun_owns_table(void);

struct sockaddr;
/* Starts tracking fd as connected to addr if it is a TCP or Unix socket; returns its slot or NULL. */
FRONTRUN_HIDDEN struct frontrun_fd *frontrun_track(int fd, const struct sockaddr *addr, unsigned len);
FRONTRUN_HIDDEN void frontrun_track_probe(int fd);
FRONTRUN_HIDDEN void frontrun_untrack(int fd);
/* One past the highest fd ever tracked: bounds scans of the table. */
FRONTRUN_HIDDEN int32_t frontrun_fd_limit(void);
/* After dup2/dup3: newfd refers to the same socket as oldfd. */
FRONTRUN_HIDDEN void frontrun_track_dup(int oldfd, int newfd);

/* ---- watched ports (fdtable.c) ----------------------------------------------------------------- */

/* Raises or lowers a nesting count (a switch several callers may turn on), never below zero. */
FRONTRUN_HIDDEN int frontrun_adjust_count(_Atomic uint32_t *count, int up, uint32_t *now);

extern _Atomic uint32_t frontrun_watch[65536] FRONTRUN_HIDDEN;
extern _Atomic uint32_t frontrun_watch_total FRONTRUN_HIDDEN;

static inline int frontrun_watched(int32_t port) {
    return atomic_load_explicit(&frontrun_watch[(uint32_t) port & 0xffffu], memory_order_relaxed) != 0;
}

static inline int frontrun_anything_watched(void) {
    return atomic_load_explicit(&frontrun_watch_total, memory_order_relaxed) != 0;
}

/* ---- accounting (account.c, threadstats.c, ring.c) --------------------------------------------- */

extern _Atomic uint64_t frontrun_probe_hits FRONTRUN_HIDDEN;
extern _Atomic uint32_t frontrun_recording FRONTRUN_HIDDEN;

/* Counts one intercepted call on a tracked fd; preserves errno. */
FRONTRUN_HIDDEN void frontrun_account(struct frontrun_fd *slot, int fd, int op, ssize_t result);

FRONTRUN_HIDDEN void frontrun_thread_count(int32_t port, int counter, uint64_t amount);
FRONTRUN_HIDDEN int frontrun_thread_read(int32_t port, uint64_t *out);

/* A bounded lock-free multi-producer ring of fixed-size records, each starting with a uint64_t seq
 * (ring.c). Producers never block; a full ring drops and counts. One consumer at a time. */
struct frontrun_ring {
    _Atomic uint64_t head;      /* next position a producer claims */
    uint64_t tail;              /* next position the consumer reads; guarded by lock */
    _Atomic uint64_t dropped;
    _Atomic int initialised;
    uint32_t size;              /* slots, a power of two */
    uint32_t record;            /* bytes per record */
    _Atomic uint64_t *sequences;
    unsigned char *records;
    pthread_mutex_t lock;       /* serialises consumers; no producer ever takes it */
};

FRONTRUN_HIDDEN void frontrun_ring_init(struct frontrun_ring *ring);
FRONTRUN_HIDDEN void frontrun_ring_push(struct frontrun_ring *ring, const void *record);
FRONTRUN_HIDDEN int32_t frontrun_ring_drain(struct frontrun_ring *ring, void *out, int32_t max);
FRONTRUN_HIDDEN uint64_t frontrun_ring_dropped(struct frontrun_ring *ring);

extern struct frontrun_ring frontrun_events FRONTRUN_HIDDEN;
extern struct frontrun_ring frontrun_pg_events FRONTRUN_HIDDEN;

/* ---- PostgreSQL frontend protocol (pgwire.c) --------------------------------------------------- */

enum frontrun_pg_phase { PG_STARTUP = 0, PG_TYPED = 1, PG_UNREADABLE = 2 };

extern _Atomic uint32_t frontrun_pg_recording FRONTRUN_HIDDEN;

/* A newly tracked connection: its stream starts with the startup packet. */
FRONTRUN_HIDDEN void frontrun_pg_reset(struct frontrun_fd *slot);
/* Follows count bytes just written to a tracked socket. */
FRONTRUN_HIDDEN void frontrun_pg_feed(struct frontrun_fd *slot, int fd, const void *buf, size_t count);

FRONTRUN_HIDDEN int32_t frontrun_gettid(void);

/* ---- requests to endpoints (endpoints.c) -------------------------------------------------------- */

extern _Atomic uint32_t frontrun_requests_fed FRONTRUN_HIDDEN;

/* Before a write of count bytes (head: the first of them) to a tracked socket: announces a request
 * when one starts. 0 to go on with the write, -1 (errno set) to fail it. */
FRONTRUN_HIDDEN int frontrun_request_starting(struct frontrun_fd *slot, int fd, const void *head, size_t count);

static inline int frontrun_before_write(int fd, const void *head, size_t count) {
    if (atomic_load_explicit(&frontrun_requests_fed, memory_order_relaxed) == 0) {
        return 0;
    }
    struct frontrun_fd *slot = frontrun_tracked(fd);
    return slot == NULL ? 0 : frontrun_request_starting(slot, fd, head, count);
}

#endif

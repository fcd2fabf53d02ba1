/*
 * Shared internals of libfrontrun_io.so: the real libc functions, the fd table, the watch table and
 * the accounting entry point used by the hooks.
 */
#ifndef FRONTRUN_INTERNAL_H
#define FRONTRUN_INTERNAL_H

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

struct frontrun_fd {
    _Atomic uint32_t state;   /* frontrun_fd_state; written last on track, first on untrack */
    _Atomic int32_t port;
    int32_t family;
    uint8_t addr[16];
    _Atomic uint64_t counters[FRONTRUN_IO_NCOUNTERS];
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

FRONTRUN_HIDDEN void frontrun_ring_push(const struct frontrun_io_event *event);
FRONTRUN_HIDDEN int32_t frontrun_ring_drain(struct frontrun_io_event *out, int32_t max);
FRONTRUN_HIDDEN uint64_t frontrun_ring_dropped(void);

FRONTRUN_HIDDEN int32_t frontrun_gettid(void);

#endif

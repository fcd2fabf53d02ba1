/*
 * The exported frontrun_io_* functions that the JNA bridge calls.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "internal.h"

uint32_t frontrun_io_active(void) {
    return frontrun_is_interposing() ? FRONTRUN_IO_MAGIC : 0;
}

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*close_fn)(int);

int32_t frontrun_io_probe(void) {
    write_fn process_write = (write_fn) frontrun_process_write();
    close_fn real_close = (close_fn) frontrun_real_fn(REAL_CLOSE);
    if (process_write == NULL || real_close == NULL) {
        return -ENOSYS;
    }
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
        return -errno;
    }
    frontrun_track_probe(pair[0]);
    uint64_t before = atomic_load_explicit(&frontrun_probe_hits, memory_order_relaxed);
    ssize_t written = process_write(pair[0], "p", 1);
    int err = errno;
    uint64_t after = atomic_load_explicit(&frontrun_probe_hits, memory_order_relaxed);
    frontrun_untrack(pair[0]);
    real_close(pair[0]);
    real_close(pair[1]);
    if (written != 1) {
        return written < 0 ? -err : -EIO;
    }
    return after > before ? 1 : 0;
}

const char *frontrun_io_library_path(void) {
    return frontrun_self_path();
}

int32_t frontrun_io_gettid(void) {
    return frontrun_gettid();
}

/* Raises or lowers a nesting count, never below zero; returns whether it changed. */
int frontrun_adjust_count(_Atomic uint32_t *count, int up, uint32_t *now) {
    uint32_t current = atomic_load_explicit(count, memory_order_relaxed);
    uint32_t next;
    do {
        if (!up && current == 0) {
            *now = 0;
            return 0;
        }
        next = up ? current + 1 : current - 1;
    } while (!atomic_compare_exchange_weak_explicit(count, &current, next,
            memory_order_acq_rel, memory_order_relaxed));
    *now = next;
    return 1;
}

int32_t frontrun_io_watch_port(int32_t port, int32_t on) {
    if (port < 0 || port > 65535) {
        return -1;
    }
    uint32_t now;
    if (frontrun_adjust_count(&frontrun_watch[port], on != 0, &now)) {
        if (on) {
            atomic_fetch_add_explicit(&frontrun_watch_total, 1, memory_order_acq_rel);
        } else {
            atomic_fetch_sub_explicit(&frontrun_watch_total, 1, memory_order_acq_rel);
        }
    }
    return (int32_t) now;
}

int32_t frontrun_io_watch_count(int32_t port) {
    if (port < 0 || port > 65535) {
        return -1;
    }
    return (int32_t) atomic_load_explicit(&frontrun_watch[port], memory_order_relaxed);
}

int32_t frontrun_io_record_events(int32_t on) {
    uint32_t now;
    frontrun_adjust_count(&frontrun_recording, on != 0, &now);
    return (int32_t) now;
}

int32_t frontrun_io_drain(struct frontrun_io_event *out, int32_t max) {
    return out == NULL || max <= 0 ? 0 : frontrun_ring_drain(&frontrun_events, out, max);
}

uint64_t frontrun_io_dropped(void) {
    return frontrun_ring_dropped(&frontrun_events);
}

int32_t frontrun_io_record_pg(int32_t on) {
    uint32_t now;
    frontrun_adjust_count(&frontrun_pg_recording, on != 0, &now);
    return (int32_t) now;
}

int32_t frontrun_io_drain_pg(struct frontrun_io_pg_event *out, int32_t max) {
    return out == NULL || max <= 0 ? 0 : frontrun_ring_drain(&frontrun_pg_events, out, max);
}

uint64_t frontrun_io_pg_dropped(void) {
    return frontrun_ring_dropped(&frontrun_pg_events);
}

int32_t frontrun_io_thread_counters(int32_t port, uint64_t *out) {
    return out == NULL ? 0 : frontrun_thread_read(port, out);
}

int32_t frontrun_io_sockets(int32_t port, struct frontrun_io_socket *out, int32_t max) {
    int32_t matched = 0;
    int32_t limit = frontrun_fd_limit();
    for (int fd = 0; fd < limit; fd++) {
        struct frontrun_fd *slot = frontrun_tracked(fd);
        if (slot == NULL || atomic_load_explicit(&slot->state, memory_order_relaxed) != FD_SOCKET
                || atomic_load_explicit(&slot->port, memory_order_relaxed) != port) {
            continue;
        }
        if (out != NULL && matched < max) {
            struct frontrun_io_socket *s = &out[matched];
            s->fd = fd;
            s->port = port;
            s->family = slot->family;
            s->reserved = 0;
            memcpy(s->addr, slot->addr, sizeof s->addr);
            for (int i = 0; i < FRONTRUN_IO_NCOUNTERS; i++) {
                s->counters[i] = atomic_load_explicit(&slot->counters[i], memory_order_relaxed);
            }
        }
        matched++;
    }
    return matched;
}

_Static_assert(sizeof(struct frontrun_io_event) == 56, "event layout is part of the ABI");
_Static_assert(sizeof(struct frontrun_io_socket) == 88, "socket layout is part of the ABI");
_Static_assert(sizeof(struct frontrun_io_pg_event) == 288, "pg event layout is part of the ABI");

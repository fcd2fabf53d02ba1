/*
 * Requests to other services as scheduling points: before the first write of a request on a tracked
 * socket, a fed thread (an explored one) calls the JVM's callback, which announces the request as a
 * step and parks the thread until the scheduler runs it. The checks before the call are ordered by
 * cost: one global load while nothing is fed (in frontrun_before_write), then the fd table, then
 * thread-locals.
 */
#include <errno.h>

#include "internal.h"

/* The head of a request passed to the callback: enough for an HTTP request line. */
#define HEAD_MAX 256

_Atomic uint32_t frontrun_requests_fed;
static _Atomic(frontrun_io_request_fn) callback;
static _Atomic uint32_t ignored[65536];
static __thread int fed;
static __thread int in_callback;

void frontrun_io_set_request_callback(frontrun_io_request_fn fn) {
    atomic_store_explicit(&callback, fn, memory_order_release);
}

/* Raises or lowers a nesting count, never below zero; returns the new count. */
static int32_t nest(_Atomic uint32_t *count, int up) {
    uint32_t now;
    frontrun_adjust_count(count, up, &now);
    return (int32_t) now;
}

int32_t frontrun_io_feed_requests(int32_t on) {
    return nest(&frontrun_requests_fed, on != 0);
}

int32_t frontrun_io_feed_thread(int32_t on) {
    int previous = fed;
    fed = on != 0;
    return previous;
}

int32_t frontrun_io_ignore_port(int32_t port, int32_t on) {
    if (port < 0 || port > 65535) {
        return -1;
    }
    return nest(&ignored[port], on != 0);
}

static _Atomic uint32_t unfed_requests;
static _Atomic int32_t unfed_port;

uint32_t frontrun_io_unfed_requests(int32_t *last_port) {
    if (last_port != NULL) {
        *last_port = atomic_load_explicit(&unfed_port, memory_order_relaxed);
    }
    return atomic_load_explicit(&unfed_requests, memory_order_acquire);
}

int frontrun_request_starting(struct frontrun_fd *slot, int fd, const void *head, size_t count) {
    if (in_callback || atomic_load_explicit(&slot->state, memory_order_acquire) != FD_SOCKET
            || atomic_load_explicit(&slot->requesting, memory_order_relaxed) != 0) {
        return 0;
    }
    int32_t port = atomic_load_explicit(&slot->port, memory_order_relaxed);
    if (atomic_load_explicit(&ignored[(uint32_t) port & 0xffffu], memory_order_relaxed) != 0) {
        return 0;
    }
    if (!fed) {
        /* a request no explored thread sends (a client with threads of its own): counted, so it is not silent */
        atomic_store_explicit(&slot->requesting, 1, memory_order_relaxed);
        atomic_store_explicit(&unfed_port, port, memory_order_relaxed);
        atomic_fetch_add_explicit(&unfed_requests, 1, memory_order_release);
        return 0;
    }
    frontrun_io_request_fn fn = atomic_load_explicit(&callback, memory_order_acquire);
    if (fn == NULL) {
        return 0;
    }
    int err = errno;
    /* announced once: a retried write (EAGAIN, EINTR) of the same request is no new request */
    atomic_store_explicit(&slot->requesting, 1, memory_order_relaxed);
    in_callback = 1;
    int32_t answer = fn(fd, slot->family, slot->addr, port, head, (int32_t) (count < HEAD_MAX ? count : HEAD_MAX));
    in_callback = 0;
    if (answer < 0) {
        errno = ECANCELED;
        return -1;
    }
    errno = err;
    return 0;
}

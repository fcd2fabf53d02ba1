/*
 * Counting one intercepted call on a tracked socket: per fd (shared, atomic), per thread
 * (thread-local) and, when recording, as an event in the ring buffer. Only traffic to watched ports
 * is counted, so with no watcher the cost of a tracked call is two loads.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

_Atomic uint64_t frontrun_probe_hits;
_Atomic uint32_t frontrun_recording;

int32_t frontrun_gettid(void) {
    return (int32_t) syscall(SYS_gettid);
}

static int is_outgoing(int op) {
    return op >= FRONTRUN_IO_WRITE;
}

static int is_incoming(int op) {
    return op >= FRONTRUN_IO_READ && op < FRONTRUN_IO_WRITE;
}

static void count(struct frontrun_fd *slot, int32_t port, int counter, uint64_t amount) {
    atomic_fetch_add_explicit(&slot->counters[counter], amount, memory_order_relaxed);
    frontrun_thread_count(port, counter, amount);
}

static void record(struct frontrun_fd *slot, int fd, int op, ssize_t result, int err, int32_t port) {
    struct frontrun_io_event event;
    event.seq = 0;
    event.result = result;
    event.tid = frontrun_gettid();
    event.fd = fd;
    event.op = op;
    event.err = result < 0 ? err : 0;
    event.port = port;
    event.family = slot->family;
    memcpy(event.addr, slot->addr, sizeof event.addr);
    frontrun_ring_push(&frontrun_events, &event);
}

void frontrun_account(struct frontrun_fd *slot, int fd, int op, ssize_t result) {
    int err = errno;
    if (atomic_load_explicit(&slot->state, memory_order_relaxed) == FD_PROBE) {
        atomic_fetch_add_explicit(&frontrun_probe_hits, 1, memory_order_relaxed);
        return;
    }
    int32_t port = atomic_load_explicit(&slot->port, memory_order_relaxed);
    if (!frontrun_watched(port)) {
        return;
    }
    uint64_t moved = result > 0 ? (uint64_t) result : 0;
    if (is_outgoing(op)) {
        count(slot, port, FRONTRUN_IO_OUT_CALLS, 1);
        count(slot, port, FRONTRUN_IO_OUT_BYTES, moved);
    } else if (is_incoming(op)) {
        count(slot, port, FRONTRUN_IO_IN_CALLS, 1);
        count(slot, port, FRONTRUN_IO_IN_BYTES, moved);
    } else if (op == FRONTRUN_IO_POLL) {
        count(slot, port, FRONTRUN_IO_POLLS, 1);
    } else if (op == FRONTRUN_IO_CONNECT) {
        count(slot, port, FRONTRUN_IO_CONNECTS, 1);
    } else if (op == FRONTRUN_IO_CLOSE) {
        count(slot, port, FRONTRUN_IO_CLOSES, 1);
    }
    if (atomic_load_explicit(&frontrun_recording, memory_order_relaxed) != 0) {
        record(slot, fd, op, result, err, port);
    }
    errno = err;
}

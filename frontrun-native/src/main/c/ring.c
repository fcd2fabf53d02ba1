/*
 * A bounded multi-producer ring buffer of events (Vyukov's sequence-per-slot queue). Producers are
 * the intercepted calls: they never block and never allocate; when the ring is full they drop the
 * event and count the drop. The single consumer is frontrun_io_drain, serialised by a mutex that no
 * producer ever takes.
 */
#include <pthread.h>

#include "internal.h"

#define RING_SIZE (1u << 15)
#define RING_MASK (RING_SIZE - 1)

struct ring_slot {
    _Atomic uint64_t sequence;  /* == position: free for the producer; == position + 1: published */
    struct frontrun_io_event event;
};

static struct ring_slot ring[RING_SIZE];
static _Atomic uint64_t head;       /* next position a producer claims */
static uint64_t tail;               /* next position the consumer reads; guarded by drain_lock */
static _Atomic uint64_t dropped;
static _Atomic int initialised;
static pthread_mutex_t drain_lock = PTHREAD_MUTEX_INITIALIZER;

/* Slot i starts free for position i. Runs at load time, before any producer. */
__attribute__((constructor)) static void ring_init(void) {
    for (uint64_t i = 0; i < RING_SIZE; i++) {
        atomic_store_explicit(&ring[i].sequence, i, memory_order_relaxed);
    }
    atomic_store_explicit(&initialised, 1, memory_order_release);
}

void frontrun_ring_push(const struct frontrun_io_event *event) {
    if (!atomic_load_explicit(&initialised, memory_order_acquire)) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return;
    }
    uint64_t pos = atomic_load_explicit(&head, memory_order_relaxed);
    struct ring_slot *slot;
    for (;;) {
        slot = &ring[pos & RING_MASK];
        uint64_t seq = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        int64_t diff = (int64_t) (seq - pos);
        if (diff == 0) {
            if (atomic_compare_exchange_weak_explicit(&head, &pos, pos + 1,
                    memory_order_relaxed, memory_order_relaxed)) {
                break;
            }
        } else if (diff < 0) {
            atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
            return;
        } else {
            pos = atomic_load_explicit(&head, memory_order_relaxed);
        }
    }
    slot->event = *event;
    slot->event.seq = pos;
    atomic_store_explicit(&slot->sequence, pos + 1, memory_order_release);
}

int32_t frontrun_ring_drain(struct frontrun_io_event *out, int32_t max) {
    int32_t n = 0;
    pthread_mutex_lock(&drain_lock);
    while (n < max) {
        struct ring_slot *slot = &ring[tail & RING_MASK];
        if (atomic_load_explicit(&slot->sequence, memory_order_acquire) != tail + 1) {
            break;  /* empty, or the next producer has claimed but not yet published */
        }
        out[n++] = slot->event;
        atomic_store_explicit(&slot->sequence, tail + RING_SIZE, memory_order_release);
        tail++;
    }
    pthread_mutex_unlock(&drain_lock);
    return n;
}

uint64_t frontrun_ring_dropped(void) {
    return atomic_load_explicit(&dropped, memory_order_relaxed);
}

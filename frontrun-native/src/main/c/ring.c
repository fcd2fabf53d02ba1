/*
 * Bounded multi-producer ring buffers of fixed-size records (Vyukov's sequence-per-slot queue):
 * one of socket events, one of PostgreSQL message chunks. Producers are the intercepted calls: they
 * never block and never allocate; when a ring is full they drop the record and count the drop.
 * Consumers (frontrun_io_drain*) are serialised by a mutex that no producer ever takes.
 */
#include <string.h>

#include "internal.h"

#define EVENT_SLOTS (1u << 15)
#define PG_SLOTS (1u << 13)

static _Atomic uint64_t event_sequences[EVENT_SLOTS];
static struct frontrun_io_event event_records[EVENT_SLOTS];
static _Atomic uint64_t pg_sequences[PG_SLOTS];
static struct frontrun_io_pg_event pg_records[PG_SLOTS];

struct frontrun_ring frontrun_events = {
    .size = EVENT_SLOTS, .record = sizeof(struct frontrun_io_event),
    .sequences = event_sequences, .records = (unsigned char *) event_records,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

struct frontrun_ring frontrun_pg_events = {
    .size = PG_SLOTS, .record = sizeof(struct frontrun_io_pg_event),
    .sequences = pg_sequences, .records = (unsigned char *) pg_records,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

/* Slot i starts free for position i. Runs at load time, before any producer. */
void frontrun_ring_init(struct frontrun_ring *ring) {
    for (uint64_t i = 0; i < ring->size; i++) {
        atomic_store_explicit(&ring->sequences[i], i, memory_order_relaxed);
    }
    atomic_store_explicit(&ring->initialised, 1, memory_order_release);
}

__attribute__((constructor)) static void rings_init(void) {
    frontrun_ring_init(&frontrun_events);
    frontrun_ring_init(&frontrun_pg_events);
}

void frontrun_ring_push(struct frontrun_ring *ring, const void *record) {
    if (!atomic_load_explicit(&ring->initialised, memory_order_acquire)) {
        atomic_fetch_add_explicit(&ring->dropped, 1, memory_order_relaxed);
        return;
    }
    uint64_t mask = ring->size - 1;
    uint64_t pos = atomic_load_explicit(&ring->head, memory_order_relaxed);
    for (;;) {
        uint64_t seq = atomic_load_explicit(&ring->sequences[pos & mask], memory_order_acquire);
        int64_t diff = (int64_t) (seq - pos);
        if (diff == 0) {
            if (atomic_compare_exchange_weak_explicit(&ring->head, &pos, pos + 1,
                    memory_order_relaxed, memory_order_relaxed)) {
                break;
            }
        } else if (diff < 0) {
            atomic_fetch_add_explicit(&ring->dropped, 1, memory_order_relaxed);
            return;
        } else {
            pos = atomic_load_explicit(&ring->head, memory_order_relaxed);
        }
    }
    unsigned char *slot = ring->records + (pos & mask) * ring->record;
    memcpy(slot, record, ring->record);
    memcpy(slot, &pos, sizeof pos);  /* every record starts with its uint64_t seq */
    atomic_store_explicit(&ring->sequences[pos & mask], pos + 1, memory_order_release);
}

int32_t frontrun_ring_drain(struct frontrun_ring *ring, void *out, int32_t max) {
    int32_t n = 0;
    uint64_t mask = ring->size - 1;
    pthread_mutex_lock(&ring->lock);
    while (n < max) {
        uint64_t tail = ring->tail;
        if (atomic_load_explicit(&ring->sequences[tail & mask], memory_order_acquire) != tail + 1) {
            break;  /* empty, or the next producer has claimed but not yet published */
        }
        memcpy((unsigned char *) out + (size_t) n * ring->record, ring->records + (tail & mask) * ring->record,
                ring->record);
        n++;
        atomic_store_explicit(&ring->sequences[tail & mask], tail + ring->size, memory_order_release);
        ring->tail = tail + 1;
    }
    pthread_mutex_unlock(&ring->lock);
    return n;
}

uint64_t frontrun_ring_dropped(struct frontrun_ring *ring) {
    return atomic_load_explicit(&ring->dropped, memory_order_relaxed);
}

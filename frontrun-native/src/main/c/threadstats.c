/*
 * Per-thread counters of watched traffic, by peer port. Thread-local, so the owning thread updates
 * them without atomics; the JVM reads them through a JNA call made on that same thread.
 */
#include <string.h>

#include "internal.h"

#define THREAD_PORTS 8

struct port_counters {
    int32_t port;
    uint64_t counters[FRONTRUN_IO_NCOUNTERS];
};

struct thread_stats {
    int used;
    uint64_t overflow;  /* counts dropped because the thread already talked to THREAD_PORTS ports */
    struct port_counters ports[THREAD_PORTS];
};

static __thread struct thread_stats stats;

static struct port_counters *find(int32_t port) {
    for (int i = 0; i < stats.used; i++) {
        if (stats.ports[i].port == port) {
            return &stats.ports[i];
        }
    }
    return NULL;
}

void frontrun_thread_count(int32_t port, int counter, uint64_t amount) {
    struct port_counters *entry = find(port);
    if (entry == NULL) {
        if (stats.used == THREAD_PORTS) {
            stats.overflow++;
            return;
        }
        entry = &stats.ports[stats.used++];
        entry->port = port;
    }
    entry->counters[counter] += amount;
}

int frontrun_thread_read(int32_t port, uint64_t *out) {
    struct port_counters *entry = find(port);
    if (entry != NULL) {
        memcpy(out, entry->counters, sizeof entry->counters);
        return 1;
    }
    memset(out, 0, sizeof(uint64_t) * FRONTRUN_IO_NCOUNTERS);
    return stats.overflow != 0 ? -1 : 0;
}

int32_t frontrun_io_thread_ports_max(void) {
    return THREAD_PORTS;
}

/*
 * Which fds are connected TCP or Unix sockets, and to which peer; and which peer ports are watched.
 *
 * Both tables are static arrays indexed by fd or port, so the per-call check is one load with no
 * lock. The pages are only touched (and so only cost memory) for fds and ports actually used.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "internal.h"

struct frontrun_fd frontrun_fds[FRONTRUN_MAX_FDS];
_Atomic uint32_t frontrun_watch[65536];
_Atomic uint32_t frontrun_watch_total;
static _Atomic int32_t fd_limit;
static _Atomic pid_t owner;

/*
 * The process whose fds the table describes. A vfork()ed child (the JDK's VFORK launch mechanism)
 * shares this memory until it execs, and closes every inherited fd first: it must not untrack the
 * parent's sockets. fork() children get their own copy of the table, and own it.
 */
static void own_table(void) {
    atomic_store_explicit(&owner, getpid(), memory_order_relaxed);
}

__attribute__((constructor)) static void own_table_at_load(void) {
    own_table();
    pthread_atfork(NULL, NULL, own_table);
}

int frontrun_owns_table(void) {
    return getpid() == atomic_load_explicit(&owner, memory_order_relaxed);
}

int32_t frontrun_fd_limit(void) {
    return atomic_load_explicit(&fd_limit, memory_order_acquire);
}

static void raise_fd_limit(int fd) {
    int32_t current = atomic_load_explicit(&fd_limit, memory_order_relaxed);
    while (current <= fd && !atomic_compare_exchange_weak_explicit(&fd_limit, &current, fd + 1,
            memory_order_acq_rel, memory_order_relaxed)) {
    }
}

/* Only stream sockets carry a JDBC-style conversation; UDP "connections" are left alone. */
static int is_stream_socket(int fd) {
    int type = 0;
    socklen_t len = sizeof type;
    return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM;
}

static void reset_counters(struct frontrun_fd *slot) {
    for (int i = 0; i < FRONTRUN_IO_NCOUNTERS; i++) {
        atomic_store_explicit(&slot->counters[i], 0, memory_order_relaxed);
    }
}

/* Fills in the peer of a not-yet-published slot; 0 if addr is not a TCP/IP or Unix address. */
static int describe_peer(struct frontrun_fd *slot, const struct sockaddr *addr, unsigned len) {
    memset(slot->addr, 0, sizeof slot->addr);
    if (addr == NULL || len < sizeof(sa_family_t)) {
        return 0;
    }
    switch (addr->sa_family) {
    case AF_INET: {
        if (len < sizeof(struct sockaddr_in)) {
            return 0;
        }
        const struct sockaddr_in *in = (const struct sockaddr_in *) addr;
        memcpy(slot->addr, &in->sin_addr, 4);
        atomic_store_explicit(&slot->port, ntohs(in->sin_port), memory_order_relaxed);
        break;
    }
    case AF_INET6: {
        if (len < sizeof(struct sockaddr_in6)) {
            return 0;
        }
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) addr;
        memcpy(slot->addr, &in6->sin6_addr, 16);
        atomic_store_explicit(&slot->port, ntohs(in6->sin6_port), memory_order_relaxed);
        break;
    }
    case AF_UNIX:
        atomic_store_explicit(&slot->port, FRONTRUN_IO_UNIX_PORT, memory_order_relaxed);
        break;
    default:
        return 0;
    }
    slot->family = addr->sa_family;
    return 1;
}

struct frontrun_fd *frontrun_track(int fd, const struct sockaddr *addr, unsigned len) {
    if ((unsigned) fd >= FRONTRUN_MAX_FDS) {
        return NULL;
    }
    if (!frontrun_owns_table()) {
        return NULL;
    }
    struct frontrun_fd *slot = &frontrun_fds[fd];
    atomic_store_explicit(&slot->state, FD_UNTRACKED, memory_order_release);
    if (!describe_peer(slot, addr, len) || (addr->sa_family != AF_UNIX && !is_stream_socket(fd))) {
        return NULL;
    }
    reset_counters(slot);
    frontrun_pg_reset(slot);
    atomic_store_explicit(&slot->requesting, 0, memory_order_relaxed);
    raise_fd_limit(fd);
    atomic_store_explicit(&slot->state, FD_SOCKET, memory_order_release);
    return slot;
}

void frontrun_track_probe(int fd) {
    if ((unsigned) fd < FRONTRUN_MAX_FDS) {
        atomic_store_explicit(&frontrun_fds[fd].state, FD_PROBE, memory_order_release);
    }
}

void frontrun_untrack(int fd) {
    /* Cheap for the common untracked fd: getpid() only when there is something to forget. */
    if (frontrun_tracked(fd) != NULL && frontrun_owns_table()) {
        atomic_store_explicit(&frontrun_fds[fd].state, FD_UNTRACKED, memory_order_release);
    }
}

void frontrun_track_dup(int oldfd, int newfd) {
    struct frontrun_fd *from = frontrun_tracked(oldfd);
    if (from == NULL || atomic_load_explicit(&from->state, memory_order_relaxed) != FD_SOCKET
            || (unsigned) newfd >= FRONTRUN_MAX_FDS || !frontrun_owns_table()) {
        return;
    }
    struct frontrun_fd *to = &frontrun_fds[newfd];
    atomic_store_explicit(&to->state, FD_UNTRACKED, memory_order_release);
    atomic_store_explicit(&to->port, atomic_load_explicit(&from->port, memory_order_relaxed),
            memory_order_relaxed);
    to->family = from->family;
    memcpy(to->addr, from->addr, sizeof to->addr);
    reset_counters(to);
    to->pg = from->pg;  /* the same stream: writes through either fd continue it */
    atomic_store_explicit(&to->requesting, atomic_load_explicit(&from->requesting, memory_order_relaxed),
            memory_order_relaxed);
    raise_fd_limit(newfd);
    atomic_store_explicit(&to->state, FD_SOCKET, memory_order_release);
}

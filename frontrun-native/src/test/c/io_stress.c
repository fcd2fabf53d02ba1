/*
 * C-level robustness test of libfrontrun_io.so, run under LD_PRELOAD by PreloadStressTest.
 *
 * Client threads talk to in-process echo servers (TCP on loopback, and a Unix socket) through every
 * interposed call (write/send/sendto/sendmsg/writev, read/recv/recvfrom/recvmsg/readv, poll) while a
 * drainer thread empties the event ring concurrently. Every count the library reports (per thread,
 * per fd, and the drained events per thread id) must equal what the clients did, exactly. One
 * client talks to an unwatched port, which must not be counted at all. Prints "io_stress: OK ..."
 * and exits 0, or prints FAIL lines and exits 1.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "frontrun_io.h"

#define TCP_CLIENTS 6
#define UNIX_CLIENTS 2
#define IGNORED_CLIENTS 1
#define CLIENTS (TCP_CLIENTS + UNIX_CLIENTS + IGNORED_CLIENTS)
#define ITERATIONS 400
#define MAX_EVENTS (1 << 17)

/* The library's API, looked up in the process the way the JVM bridge does. */
static struct {
    uint32_t (*active)(void);
    int32_t (*probe)(void);
    int32_t (*gettid)(void);
    int32_t (*watch_port)(int32_t, int32_t);
    int32_t (*record_events)(int32_t);
    int32_t (*drain)(struct frontrun_io_event *, int32_t);
    uint64_t (*dropped)(void);
    int32_t (*thread_counters)(int32_t, uint64_t *);
    int32_t (*sockets)(int32_t, struct frontrun_io_socket *, int32_t);
} api;

static atomic_int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            atomic_fetch_add(&failures, 1);                                                        \
        }                                                                                          \
    } while (0)

static void *lookup(const char *name) {
    void *f = dlsym(RTLD_DEFAULT, name);
    if (f == NULL) {
        fprintf(stderr, "FAIL: %s not found: run with LD_PRELOAD=.../libfrontrun_io.so\n", name);
        exit(2);
    }
    return f;
}

static void bind_api(void) {
    api.active = lookup("frontrun_io_active");
    api.probe = lookup("frontrun_io_probe");
    api.gettid = lookup("frontrun_io_gettid");
    api.watch_port = lookup("frontrun_io_watch_port");
    api.record_events = lookup("frontrun_io_record_events");
    api.drain = lookup("frontrun_io_drain");
    api.dropped = lookup("frontrun_io_dropped");
    api.thread_counters = lookup("frontrun_io_thread_counters");
    api.sockets = lookup("frontrun_io_sockets");
}

/* ---- echo servers --------------------------------------------------------------------------- */

static void *echo(void *arg) {
    int fd = (int) (intptr_t) arg;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(fd, buf + off, (size_t) (n - off));
            if (w <= 0) {
                close(fd);
                return NULL;
            }
            off += w;
        }
    }
    close(fd);
    return NULL;
}

struct server {
    int listener;
    int connections;
};

static void *accept_loop(void *arg) {
    struct server *server = arg;
    for (int i = 0; i < server->connections; i++) {
        int fd = accept(server->listener, NULL, NULL);
        if (fd < 0) {
            perror("accept");
            exit(3);
        }
        pthread_t t;
        pthread_create(&t, NULL, echo, (void *) (intptr_t) fd);
        pthread_detach(t);
    }
    close(server->listener);
    return NULL;
}

static int tcp_listener(int *port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *) &addr, sizeof addr) != 0 || listen(fd, 64) != 0
            || getsockname(fd, (struct sockaddr *) &addr, &len) != 0) {
        perror("tcp listener");
        exit(3);
    }
    *port = ntohs(addr.sin_port);
    return fd;
}

static struct sockaddr_un unix_address(socklen_t *len) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    /* abstract namespace: nothing to clean up */
    int n = snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "frontrun-io-stress-%d", getpid());
    *len = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + 1 + n);
    return addr;
}

static int unix_listener(void) {
    socklen_t len;
    struct sockaddr_un addr = unix_address(&len);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *) &addr, len) != 0 || listen(fd, 64) != 0) {
        perror("unix listener");
        exit(3);
    }
    return fd;
}

static void start_server(struct server *server, pthread_t *thread) {
    pthread_create(thread, NULL, accept_loop, server);
}

/* ---- clients -------------------------------------------------------------------------------- */

struct client {
    int index;
    int family;          /* AF_INET or AF_UNIX */
    int port;            /* the peer port the library reports (0 for Unix) */
    int watched;
    int polls_before_read;
    int32_t tid;
    uint64_t expected[FRONTRUN_IO_NCOUNTERS];
};

static void count(struct client *c, int counter, uint64_t amount) {
    if (c->watched) {
        c->expected[counter] += amount;
    }
}

static int connect_client(struct client *c) {
    int fd = socket(c->family, SOCK_STREAM, 0);
    int rc;
    if (c->family == AF_UNIX) {
        socklen_t len;
        struct sockaddr_un addr = unix_address(&len);
        rc = connect(fd, (struct sockaddr *) &addr, len);
    } else {
        struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) c->port),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        rc = connect(fd, (struct sockaddr *) &addr, sizeof addr);
    }
    if (fd < 0 || rc != 0) {
        perror("connect");
        exit(3);
    }
    count(c, FRONTRUN_IO_CONNECTS, 1);
    return fd;
}

/* One write-like call, rotating through every interposed one. */
static ssize_t send_some(int fd, const char *buf, size_t len, int which) {
    struct iovec iov[2] = {{(void *) buf, len / 2}, {(void *) (buf + len / 2), len - len / 2}};
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
    switch (which % 5) {
    case 0: return write(fd, buf, len);
    case 1: return send(fd, buf, len, 0);
    case 2: return sendto(fd, buf, len, 0, NULL, 0);
    case 3: return writev(fd, iov, 2);
    default: return sendmsg(fd, &msg, 0);
    }
}

/* One read-like call, rotating through every interposed one. */
static ssize_t receive_some(int fd, char *buf, size_t len, int which) {
    struct iovec iov[2] = {{buf, len / 2 + 1}, {buf + len / 2 + 1, len - len / 2 - 1}};
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
    switch (which % 5) {
    case 0: return read(fd, buf, len);
    case 1: return recv(fd, buf, len, 0);
    case 2: return recvfrom(fd, buf, len, 0, NULL, NULL);
    case 3: return len > 1 ? readv(fd, iov, 2) : read(fd, buf, len);
    default: return len > 1 ? recvmsg(fd, &msg, 0) : recv(fd, buf, len, 0);
    }
}

static void round_trip(struct client *c, int fd, int iteration) {
    char out[200], in[200];
    size_t len = (size_t) (13 * (iteration % 11 + 1));
    memset(out, 'a' + c->index, len);
    for (size_t off = 0; off < len;) {
        ssize_t n = send_some(fd, out + off, len - off, iteration + (int) off);
        count(c, FRONTRUN_IO_OUT_CALLS, 1);
        CHECK(n > 0, "client %d: send failed: %s", c->index, strerror(errno));
        if (n <= 0) {
            exit(1);
        }
        count(c, FRONTRUN_IO_OUT_BYTES, (uint64_t) n);
        off += (size_t) n;
    }
    for (size_t off = 0; off < len;) {
        if (c->polls_before_read) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            CHECK(poll(&p, 1, 10000) == 1, "client %d: poll timed out", c->index);
            count(c, FRONTRUN_IO_POLLS, 1);
        }
        ssize_t n = receive_some(fd, in + off, len - off, iteration + (int) off);
        count(c, FRONTRUN_IO_IN_CALLS, 1);
        CHECK(n > 0, "client %d: receive failed: %s", c->index, strerror(errno));
        if (n <= 0) {
            exit(1);
        }
        count(c, FRONTRUN_IO_IN_BYTES, (uint64_t) n);
        off += (size_t) n;
    }
    CHECK(memcmp(out, in, len) == 0, "client %d: echo corrupted", c->index);
}

static void check_counters(struct client *c, const char *what, const uint64_t *actual) {
    static const char *const NAMES[] = {"out_calls", "out_bytes", "in_calls", "in_bytes",
                                        "polls", "connects", "closes"};
    for (int i = 0; i < FRONTRUN_IO_NCOUNTERS; i++) {
        CHECK(actual[i] == c->expected[i], "client %d %s %s: expected %llu, got %llu", c->index,
                what, NAMES[i], (unsigned long long) c->expected[i], (unsigned long long) actual[i]);
    }
}

static void check_fd_counters(struct client *c, int fd) {
    struct frontrun_io_socket sockets[CLIENTS];
    int n = api.sockets(c->port, sockets, CLIENTS);
    for (int i = 0; i < n && i < CLIENTS; i++) {
        if (sockets[i].fd == fd) {
            CHECK(sockets[i].family == c->family, "client %d: family %d", c->index, sockets[i].family);
            check_counters(c, "fd", sockets[i].counters);
            return;
        }
    }
    CHECK(0, "client %d: fd %d not among the %d tracked sockets to port %d", c->index, fd, n, c->port);
}

static void check_errno_preserved(int fd, struct client *c) {
    char b;
    errno = 0;
    ssize_t n = recv(fd, &b, 1, MSG_DONTWAIT);
    CHECK(n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK),
            "client %d: errno not preserved: n=%zd errno=%d", c->index, n, errno);
    count(c, FRONTRUN_IO_IN_CALLS, 1);
}

static void *client_main(void *arg) {
    struct client *c = arg;
    c->tid = api.gettid();
    int fd = connect_client(c);
    for (int i = 0; i < ITERATIONS; i++) {
        round_trip(c, fd, i);
    }
    check_errno_preserved(fd, c);
    check_fd_counters(c, fd);
    close(fd);
    count(c, FRONTRUN_IO_CLOSES, 1);
    uint64_t mine[FRONTRUN_IO_NCOUNTERS];
    int found = api.thread_counters(c->port, mine);
    CHECK(found == (c->watched ? 1 : 0), "client %d: thread_counters returned %d", c->index, found);
    check_counters(c, "thread", mine);
    return NULL;
}

/* ---- the concurrent drainer ------------------------------------------------------------------ */

static struct frontrun_io_event events[MAX_EVENTS];
static int event_count;
static atomic_int clients_done;

static void drain_some(void) {
    int room = MAX_EVENTS - event_count;
    if (room > 0) {
        event_count += api.drain(events + event_count, room > 512 ? 512 : room);
    }
}

static void *drainer(void *arg) {
    (void) arg;
    while (!atomic_load(&clients_done)) {
        drain_some();
        sched_yield();
    }
    return NULL;
}

static void check_events(struct client *clients) {
    for (int i = 0; i < CLIENTS; i++) {
        struct client *c = &clients[i];
        uint64_t seen[FRONTRUN_IO_NCOUNTERS] = {0};
        for (int e = 0; e < event_count; e++) {
            struct frontrun_io_event *ev = &events[e];
            if (ev->tid != c->tid) {
                continue;
            }
            CHECK(ev->port == c->port, "event of client %d has port %d", c->index, ev->port);
            uint64_t moved = ev->result > 0 ? (uint64_t) ev->result : 0;
            if (ev->op >= FRONTRUN_IO_WRITE) {
                seen[FRONTRUN_IO_OUT_CALLS]++;
                seen[FRONTRUN_IO_OUT_BYTES] += moved;
            } else if (ev->op >= FRONTRUN_IO_READ) {
                seen[FRONTRUN_IO_IN_CALLS]++;
                seen[FRONTRUN_IO_IN_BYTES] += moved;
            } else if (ev->op == FRONTRUN_IO_POLL) {
                seen[FRONTRUN_IO_POLLS]++;
            } else if (ev->op == FRONTRUN_IO_CONNECT) {
                seen[FRONTRUN_IO_CONNECTS]++;
            } else if (ev->op == FRONTRUN_IO_CLOSE) {
                seen[FRONTRUN_IO_CLOSES]++;
            }
        }
        check_counters(c, "events", seen);
    }
    for (int e = 1; e < event_count; e++) {
        CHECK(events[e].seq == events[e - 1].seq + 1, "event sequence gap at %d", e);
    }
}

int main(void) {
    bind_api();
    CHECK(api.active() == FRONTRUN_IO_MAGIC, "frontrun_io_active() = %#x", api.active());
    CHECK(api.probe() == 1, "frontrun_io_probe() = %d", api.probe());

    int tcp_port, ignored_port;
    struct server tcp = {tcp_listener(&tcp_port), TCP_CLIENTS};
    struct server ignored = {tcp_listener(&ignored_port), IGNORED_CLIENTS};
    struct server unix_server = {unix_listener(), UNIX_CLIENTS};
    pthread_t servers[3];
    start_server(&tcp, &servers[0]);
    start_server(&ignored, &servers[1]);
    start_server(&unix_server, &servers[2]);

    CHECK(api.watch_port(tcp_port, 1) == 1, "watch tcp port");
    CHECK(api.watch_port(FRONTRUN_IO_UNIX_PORT, 1) == 1, "watch unix sockets");
    CHECK(api.record_events(1) == 1, "record events");

    static struct client clients[CLIENTS];
    for (int i = 0; i < CLIENTS; i++) {
        struct client *c = &clients[i];
        c->index = i;
        c->family = i < TCP_CLIENTS + IGNORED_CLIENTS ? AF_INET : AF_UNIX;
        c->watched = i != TCP_CLIENTS;
        c->port = c->family == AF_UNIX ? FRONTRUN_IO_UNIX_PORT : c->watched ? tcp_port : ignored_port;
        c->polls_before_read = i % 2;
    }
    pthread_t drain_thread, threads[CLIENTS];
    pthread_create(&drain_thread, NULL, drainer, NULL);
    for (int i = 0; i < CLIENTS; i++) {
        pthread_create(&threads[i], NULL, client_main, &clients[i]);
    }
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(threads[i], NULL);
    }
    atomic_store(&clients_done, 1);
    pthread_join(drain_thread, NULL);
    int before;
    do {
        before = event_count;
        drain_some();
    } while (event_count != before);
    for (int i = 0; i < 3; i++) {
        pthread_join(servers[i], NULL);
    }

    CHECK(api.dropped() == 0, "%llu events dropped", (unsigned long long) api.dropped());
    check_events(clients);
    CHECK(api.sockets(tcp_port, NULL, 0) == 0, "closed sockets still tracked");
    api.record_events(0);
    api.watch_port(FRONTRUN_IO_UNIX_PORT, 0);
    CHECK(api.watch_port(tcp_port, 0) == 0, "unwatch tcp port");

    uint64_t out_bytes = 0, in_bytes = 0;
    for (int i = 0; i < CLIENTS; i++) {
        out_bytes += clients[i].expected[FRONTRUN_IO_OUT_BYTES];
        in_bytes += clients[i].expected[FRONTRUN_IO_IN_BYTES];
    }
    if (atomic_load(&failures) != 0) {
        fprintf(stderr, "io_stress: %d failures\n", atomic_load(&failures));
        return 1;
    }
    printf("io_stress: OK clients=%d iterations=%d events=%d out_bytes=%llu in_bytes=%llu dropped=0\n",
            CLIENTS, ITERATIONS, event_count, (unsigned long long) out_bytes,
            (unsigned long long) in_bytes);
    return 0;
}

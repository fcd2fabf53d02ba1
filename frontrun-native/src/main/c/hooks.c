/*
 * The interposed libc functions. Each calls the real function first, then, only if the fd is a
 * tracked socket, counts the call. Nothing here allocates or locks, so the hooks are safe on any
 * thread, including the JVM's and JNA's own I/O. The one call into the JVM is the request callback
 * (endpoints.c), made before a request's first write, only on a thread the JVM itself marked as fed.
 *
 * Deliberately compiled without _GNU_SOURCE: glibc then declares the socket functions with plain
 * `struct sockaddr *` parameters instead of transparent unions, so these definitions match.
 */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

#define HOOK FRONTRUN_IO_API

/* The real function, or fail the call like a missing syscall would. */
#define REAL_OR_FAIL(type, fn, var)                                                                \
    type var = (type) frontrun_real_fn(fn);                                                        \
    if (var == NULL) {                                                                             \
        errno = ENOSYS;                                                                            \
        return -1;                                                                                 \
    }

static inline void after(int fd, int op, ssize_t result) {
    struct frontrun_fd *slot = frontrun_tracked(fd);
    if (slot != NULL) {
        frontrun_account(slot, fd, op, result);
    }
}

/* After a read-like call: bytes came back, so the socket's next write starts a new request. */
static inline void after_read(int fd, int op, ssize_t result) {
    struct frontrun_fd *slot = frontrun_tracked(fd);
    if (slot != NULL) {
        if (result > 0 && atomic_load_explicit(&slot->requesting, memory_order_relaxed) != 0) {
            atomic_store_explicit(&slot->requesting, 0, memory_order_relaxed);
        }
        frontrun_account(slot, fd, op, result);
    }
}

static inline void mark_requesting(struct frontrun_fd *slot, ssize_t result) {
    if (result > 0 && atomic_load_explicit(&slot->requesting, memory_order_relaxed) == 0) {
        atomic_store_explicit(&slot->requesting, 1, memory_order_relaxed);
    }
}

/* The first non-empty vector of a gathering write, for the request's head. */
static inline const struct iovec *first_vector(const struct iovec *iov, size_t count) {
    for (size_t i = 0; i < count && iov != NULL; i++) {
        if (iov[i].iov_len > 0) {
            return &iov[i];
        }
    }
    return NULL;
}

#define BEFORE_WRITE(fd, head, count)                                                              \
    if (frontrun_before_write(fd, head, count) != 0) {                                             \
        return -1;                                                                                 \
    }

/* After a write-like call: counts it and follows the bytes it wrote as the PostgreSQL protocol. */
static inline void after_write(int fd, int op, ssize_t result, const void *buf) {
    struct frontrun_fd *slot = frontrun_tracked(fd);
    if (slot != NULL) {
        if (result > 0) {
            frontrun_pg_feed(slot, fd, buf, (size_t) result);
        }
        mark_requesting(slot, result);
        frontrun_account(slot, fd, op, result);
    }
}

/* The same for a gathering write: the bytes written are the first result bytes of the vectors. */
static inline void after_writev(int fd, int op, ssize_t result, const struct iovec *iov, size_t count) {
    struct frontrun_fd *slot = frontrun_tracked(fd);
    if (slot != NULL) {
        size_t left = result > 0 ? (size_t) result : 0;
        for (size_t i = 0; i < count && left > 0 && iov != NULL; i++) {
            size_t n = iov[i].iov_len < left ? iov[i].iov_len : left;
            frontrun_pg_feed(slot, fd, iov[i].iov_base, n);
            left -= n;
        }
        mark_requesting(slot, result);
        frontrun_account(slot, fd, op, result);
    }
}

typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);

HOOK int connect(int fd, const struct sockaddr *addr, socklen_t len) {
    REAL_OR_FAIL(connect_fn, REAL_CONNECT, real);
    int result = real(fd, addr, len);
    int err = errno;
    if (result == 0 || err == EINPROGRESS) {
        struct frontrun_fd *slot = frontrun_track(fd, addr, len);
        if (slot != NULL) {
            frontrun_account(slot, fd, FRONTRUN_IO_CONNECT, result);
        }
    } else if (err != EALREADY && err != EINTR && err != EISCONN) {
        frontrun_untrack(fd);  /* a failed (re)connect: whatever was tracked there is gone */
    }
    errno = err;
    return result;
}

typedef ssize_t (*read_fn)(int, void *, size_t);

HOOK ssize_t read(int fd, void *buf, size_t count) {
    REAL_OR_FAIL(read_fn, REAL_READ, real);
    ssize_t result = real(fd, buf, count);
    after_read(fd, FRONTRUN_IO_READ, result);
    return result;
}

typedef ssize_t (*write_fn)(int, const void *, size_t);

HOOK ssize_t write(int fd, const void *buf, size_t count) {
    REAL_OR_FAIL(write_fn, REAL_WRITE, real);
    BEFORE_WRITE(fd, buf, count);
    ssize_t result = real(fd, buf, count);
    after_write(fd, FRONTRUN_IO_WRITE, result, buf);
    return result;
}

typedef int (*close_fn)(int);

HOOK int close(int fd) {
    REAL_OR_FAIL(close_fn, REAL_CLOSE, real);
    struct frontrun_fd *slot = frontrun_tracked(fd);
    if (slot != NULL && frontrun_owns_table()) {
        /* Untrack before the fd number can be reused by another thread's open/socket. */
        frontrun_account(slot, fd, FRONTRUN_IO_CLOSE, 0);
        frontrun_untrack(fd);
    }
    return real(fd);
}

typedef int (*poll_fn)(struct pollfd *, nfds_t, int);

HOOK int poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    REAL_OR_FAIL(poll_fn, REAL_POLL, real);
    int result = real(fds, nfds, timeout);
    if (frontrun_anything_watched()) {
        for (nfds_t i = 0; i < nfds; i++) {
            after(fds[i].fd, FRONTRUN_IO_POLL, result);
        }
    }
    return result;
}

typedef ssize_t (*send_fn)(int, const void *, size_t, int);

HOOK ssize_t send(int fd, const void *buf, size_t len, int flags) {
    REAL_OR_FAIL(send_fn, REAL_SEND, real);
    BEFORE_WRITE(fd, buf, len);
    ssize_t result = real(fd, buf, len, flags);
    after_write(fd, FRONTRUN_IO_SEND, result, buf);
    return result;
}

typedef ssize_t (*recv_fn)(int, void *, size_t, int);

HOOK ssize_t recv(int fd, void *buf, size_t len, int flags) {
    REAL_OR_FAIL(recv_fn, REAL_RECV, real);
    ssize_t result = real(fd, buf, len, flags);
    after_read(fd, FRONTRUN_IO_RECV, result);
    return result;
}

typedef ssize_t (*sendto_fn)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);

HOOK ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
        socklen_t tolen) {
    REAL_OR_FAIL(sendto_fn, REAL_SENDTO, real);
    BEFORE_WRITE(fd, buf, len);
    ssize_t result = real(fd, buf, len, flags, to, tolen);
    after_write(fd, FRONTRUN_IO_SENDTO, result, buf);
    return result;
}

typedef ssize_t (*recvfrom_fn)(int, void *, size_t, int, struct sockaddr *, socklen_t *);

HOOK ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
        socklen_t *fromlen) {
    REAL_OR_FAIL(recvfrom_fn, REAL_RECVFROM, real);
    ssize_t result = real(fd, buf, len, flags, from, fromlen);
    after_read(fd, FRONTRUN_IO_RECVFROM, result);
    return result;
}

typedef ssize_t (*sendmsg_fn)(int, const struct msghdr *, int);

HOOK ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
    REAL_OR_FAIL(sendmsg_fn, REAL_SENDMSG, real);
    if (atomic_load_explicit(&frontrun_requests_fed, memory_order_relaxed) != 0 && msg != NULL) {
        const struct iovec *head = first_vector(msg->msg_iov, (size_t) msg->msg_iovlen);
        BEFORE_WRITE(fd, head == NULL ? NULL : head->iov_base, head == NULL ? 0 : head->iov_len);
    }
    ssize_t result = real(fd, msg, flags);
    after_writev(fd, FRONTRUN_IO_SENDMSG, result, msg == NULL ? NULL : msg->msg_iov,
            msg == NULL ? 0 : (size_t) msg->msg_iovlen);
    return result;
}

typedef ssize_t (*recvmsg_fn)(int, struct msghdr *, int);

HOOK ssize_t recvmsg(int fd, struct msghdr *msg, int flags) {
    REAL_OR_FAIL(recvmsg_fn, REAL_RECVMSG, real);
    ssize_t result = real(fd, msg, flags);
    after_read(fd, FRONTRUN_IO_RECVMSG, result);
    return result;
}

typedef ssize_t (*readv_fn)(int, const struct iovec *, int);

HOOK ssize_t readv(int fd, const struct iovec *iov, int iovcnt) {
    REAL_OR_FAIL(readv_fn, REAL_READV, real);
    ssize_t result = real(fd, iov, iovcnt);
    after_read(fd, FRONTRUN_IO_READV, result);
    return result;
}

HOOK ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    REAL_OR_FAIL(readv_fn, REAL_WRITEV, real);
    if (atomic_load_explicit(&frontrun_requests_fed, memory_order_relaxed) != 0 && iovcnt > 0) {
        const struct iovec *head = first_vector(iov, (size_t) iovcnt);
        BEFORE_WRITE(fd, head == NULL ? NULL : head->iov_base, head == NULL ? 0 : head->iov_len);
    }
    ssize_t result = real(fd, iov, iovcnt);
    after_writev(fd, FRONTRUN_IO_WRITEV, result, iov, iovcnt > 0 ? (size_t) iovcnt : 0);
    return result;
}

/* ---- fd-number reuse: keep the table from describing an fd that now means something else ------ */

typedef int (*dup2_fn)(int, int);

HOOK int dup2(int oldfd, int newfd) {
    REAL_OR_FAIL(dup2_fn, REAL_DUP2, real);
    if (oldfd != newfd) {
        frontrun_untrack(newfd);  /* the JDK's pre-close dup2()s a dead socket over a live fd */
    }
    int result = real(oldfd, newfd);
    if (result >= 0 && oldfd != newfd) {
        int err = errno;
        frontrun_track_dup(oldfd, newfd);
        errno = err;
    }
    return result;
}

typedef int (*dup3_fn)(int, int, int);

HOOK int dup3(int oldfd, int newfd, int flags) {
    REAL_OR_FAIL(dup3_fn, REAL_DUP3, real);
    if (oldfd != newfd) {
        frontrun_untrack(newfd);
    }
    int result = real(oldfd, newfd, flags);
    if (result >= 0) {
        int err = errno;
        frontrun_track_dup(oldfd, newfd);
        errno = err;
    }
    return result;
}

typedef int (*socket_fn)(int, int, int);

HOOK int socket(int domain, int type, int protocol) {
    REAL_OR_FAIL(socket_fn, REAL_SOCKET, real);
    int fd = real(domain, type, protocol);
    if (fd >= 0) {
        frontrun_untrack(fd);  /* stale if the old fd was closed behind our back */
    }
    return fd;
}

typedef int (*accept_fn)(int, struct sockaddr *, socklen_t *);

HOOK int accept(int fd, struct sockaddr *addr, socklen_t *len) {
    REAL_OR_FAIL(accept_fn, REAL_ACCEPT, real);
    int result = real(fd, addr, len);
    if (result >= 0) {
        frontrun_untrack(result);
    }
    return result;
}

typedef int (*accept4_fn)(int, struct sockaddr *, socklen_t *, int);

HOOK int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    REAL_OR_FAIL(accept4_fn, REAL_ACCEPT4, real);
    int result = real(fd, addr, len, flags);
    if (result >= 0) {
        frontrun_untrack(result);
    }
    return result;
}

/*
 * Finding the real libc functions behind the hooks (dlsym RTLD_NEXT), and telling whether this copy
 * of the library is the one the process actually calls (dlsym RTLD_DEFAULT). Kept apart from the
 * hooks because it needs _GNU_SOURCE, whose transparent-union sockaddr prototypes the hooks avoid.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "internal.h"

_Atomic(void *) frontrun_real[REAL_COUNT];

static const char *const NAMES[REAL_COUNT] = {
    [REAL_CONNECT] = "connect", [REAL_READ] = "read", [REAL_WRITE] = "write",
    [REAL_CLOSE] = "close", [REAL_POLL] = "poll", [REAL_SEND] = "send", [REAL_RECV] = "recv",
    [REAL_SENDTO] = "sendto", [REAL_RECVFROM] = "recvfrom", [REAL_SENDMSG] = "sendmsg",
    [REAL_RECVMSG] = "recvmsg", [REAL_READV] = "readv", [REAL_WRITEV] = "writev",
    [REAL_DUP2] = "dup2", [REAL_DUP3] = "dup3", [REAL_SOCKET] = "socket",
    [REAL_ACCEPT] = "accept", [REAL_ACCEPT4] = "accept4",
};

void *frontrun_resolve(enum frontrun_real_fn fn) {
    /* Idempotent: racing callers store the same pointer. */
    void *f = dlsym(RTLD_NEXT, NAMES[fn]);
    atomic_store_explicit(&frontrun_real[fn], f, memory_order_relaxed);
    return f;
}

__attribute__((constructor)) static void resolve_all(void) {
    for (int fn = 0; fn < REAL_COUNT; fn++) {
        frontrun_resolve((enum frontrun_real_fn) fn);
    }
}

static void anchor(void) {
}

/* The base address of the shared object that defines addr, or NULL. */
static void *object_of(void *addr) {
    Dl_info info;
    return addr != NULL && dladdr(addr, &info) != 0 ? info.dli_fbase : NULL;
}

int frontrun_is_interposing(void) {
    void *self = object_of((void *) &anchor);
    static const char *const CHECKED[] = {"read", "write", "connect", "close", "poll"};
    for (size_t i = 0; i < sizeof CHECKED / sizeof CHECKED[0]; i++) {
        if (self == NULL || object_of(dlsym(RTLD_DEFAULT, CHECKED[i])) != self) {
            return 0;
        }
    }
    return 1;
}

void *frontrun_process_write(void) {
    return dlsym(RTLD_DEFAULT, "write");
}

const char *frontrun_self_path(void) {
    Dl_info info;
    return dladdr((void *) &anchor, &info) != 0 && info.dli_fname != NULL ? info.dli_fname : "";
}

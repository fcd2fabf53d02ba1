package dev.frontrun.internal.engine;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who holds which Java lock and who waits in which monitor's wait set, within one execution, as
 * the explored synchronization steps ({@link SyncOp}) say. Reentrant takes are not steps (the
 * instrumentation counts them), so a holder is one thread. Keyed by object identity.
 */
final class SyncState {

    private final Map<Object, Integer> owners = new IdentityHashMap<>();
    private final Map<Object, List<Integer>> readers = new IdentityHashMap<>();
    private final Map<Object, List<Integer>> waitSets = new IdentityHashMap<>();

    /** Whether {@code thread} can run {@code op} now without blocking. */
    boolean enabled(int thread, Object detail) {
        if (!(detail instanceof SyncOp op)) {
            return true;
        }
        if (op instanceof SyncOp.Acquire a) {
            return freeOfOthers(a.lock(), thread, !a.shared());
        }
        if (op instanceof SyncOp.Reacquire r) {
            return (r.timed() || !waiting(r.monitor(), thread)) && freeOfOthers(r.monitor(), thread, true);
        }
        if (op instanceof SyncOp.Await w) {
            return w.ready().getAsBoolean();
        }
        return true; // try-acquire, release, wait and notify never block
    }

    /** The thread {@code thread}'s disabled step waits for, if one explored thread holds what it needs. */
    Optional<Integer> holderBlocking(int thread, Object detail) {
        Object lock = detail instanceof SyncOp op ? op.takes() : null;
        if (lock == null) {
            return Optional.empty();
        }
        Integer owner = owners.get(lock);
        if (owner != null && owner != thread) {
            return Optional.of(owner);
        }
        List<Integer> rs = readers.getOrDefault(lock, List.of());
        return rs.stream().filter(r -> r != thread).findFirst();
    }

    /** The step {@code op} of {@code thread} was granted: record its effect. */
    void apply(int thread, Object detail) {
        if (!(detail instanceof SyncOp op)) {
            return;
        }
        if (op instanceof SyncOp.Acquire a) {
            take(a.lock(), thread, a.shared());
        } else if (op instanceof SyncOp.TryAcquire t) {
            if (freeOfOthers(t.lock(), thread, !t.shared())) {
                take(t.lock(), thread, t.shared());
            }
        } else if (op instanceof SyncOp.Release r) {
            give(r.lock(), thread, r.shared());
        } else if (op instanceof SyncOp.Wait w) {
            give(w.monitor(), thread, false);
            waitSets.computeIfAbsent(w.monitor(), m -> new ArrayList<>()).add(thread);
        } else if (op instanceof SyncOp.Reacquire r) {
            List<Integer> set = waitSets.get(r.monitor());
            if (set != null) {
                set.remove(Integer.valueOf(thread));
            }
            owners.put(r.monitor(), thread);
        } else if (op instanceof SyncOp.Notify n) {
            List<Integer> set = waitSets.get(n.monitor());
            if (set != null && !set.isEmpty()) {
                if (n.all()) {
                    set.clear();
                } else {
                    set.remove(0);
                }
            }
        }
    }

    /** Forgets what a finished thread held (an unwound body gave its monitors back). */
    void releaseAll(int thread) {
        owners.values().removeIf(owner -> owner == thread);
        readers.values().forEach(rs -> rs.removeIf(r -> r == thread));
        waitSets.values().forEach(ws -> ws.removeIf(w -> w == thread));
    }

    private boolean waiting(Object monitor, int thread) {
        return waitSets.getOrDefault(monitor, List.of()).contains(thread);
    }

    private boolean freeOfOthers(Object lock, int thread, boolean exclusive) {
        Integer owner = owners.get(lock);
        if (owner != null && owner != thread) {
            return false;
        }
        return !exclusive || readers.getOrDefault(lock, List.of()).stream().allMatch(r -> r == thread);
    }

    private void take(Object lock, int thread, boolean shared) {
        if (shared) {
            readers.computeIfAbsent(lock, l -> new ArrayList<>()).add(thread);
        } else {
            owners.put(lock, thread);
        }
    }

    private void give(Object lock, int thread, boolean shared) {
        if (shared) {
            List<Integer> rs = readers.get(lock);
            if (rs != null) {
                rs.remove(Integer.valueOf(thread));
            }
        } else {
            owners.remove(lock, thread);
        }
    }
}

package dev.frontrun.internal.engine.run;

import dev.frontrun.internal.engine.execution.SyncOp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.StampedLock;

/**
 * Who holds which Java lock and who waits in which wait set, within one execution, as the explored
 * synchronization steps ({@link SyncOp}) say. Reentrant takes are not steps (the instrumentation counts
 * them), so an exclusive holder is one thread. Keyed by object identity.
 *
 * <p>A {@code notify} does not pick its waiter: it leaves a pending notification that any thread
 * waiting at that moment may take, and the first of them to wake takes it (their wake-ups write the
 * wait set's resource, so the exploration runs each of them first). Pending notifications of one wait
 * set are kept oldest first; the threads still waiting that an older one may wake are a subset of those
 * a newer one may wake, so a waker takes the oldest it may: that leaves every other waiter all the
 * notifications it could still get.
 */
final class SyncState {

    private final Map<Object, Integer> owners = new IdentityHashMap<>();
    private final Map<Object, List<Integer>> readers = new IdentityHashMap<>();
    private final Map<Object, WaitSet> waitSets = new IdentityHashMap<>();

    /** The threads of one wait set: waiting, notified but not yet back in the lock, and the pending notifications. */
    private static final class WaitSet {
        final List<Integer> waiting = new ArrayList<>();
        final Set<Integer> woken = new HashSet<>();
        /** For each pending {@code notify}, oldest first: the threads waiting when it came that have not left since. */
        final List<Set<Integer>> pending = new ArrayList<>();

        boolean mayWake(int thread) {
            return woken.contains(thread) || pending.stream().anyMatch(n -> n.contains(thread));
        }

        /** The thread leaves the wait set, taking the oldest notification pending for it, if any. */
        void leave(int thread) {
            if (!woken.remove(thread)) {
                for (int i = 0; i < pending.size(); i++) {
                    if (pending.get(i).contains(thread)) {
                        pending.remove(i);
                        break;
                    }
                }
            }
            waiting.remove(Integer.valueOf(thread));
            pending.forEach(n -> n.remove(thread));
            pending.removeIf(Set::isEmpty);
        }
    }

    /** Whether {@code thread} can run {@code op} now without blocking. */
    boolean enabled(int thread, Object detail) {
        if (!(detail instanceof SyncOp op)) {
            return true;
        }
        if (op instanceof SyncOp.Acquire a) {
            return free(a.lock(), thread, !a.shared());
        }
        if (op instanceof SyncOp.Leave l) {
            return free(l.lock(), thread, true);
        }
        if (op instanceof SyncOp.Reacquire r) {
            return free(r.lock(), thread, true)
                    && (!waiting(r.waitSet(), thread) || waitSet(r.waitSet()).mayWake(thread));
        }
        if (op instanceof SyncOp.Await w) {
            return w.ready().getAsBoolean();
        }
        if (op instanceof SyncOp.Until u) {
            return u.ready().getAsBoolean();
        }
        return true; // try-acquire, release, wait, notify and give-back never block
    }

    /**
     * Whether {@code detail} is an untimed wait's leave without a notification for {@code thread}: only a
     * spurious wake-up, which the JVM need never make.
     */
    boolean onlySpurious(int thread, Object detail) {
        if (!(detail instanceof SyncOp.Leave l) || l.timed()) {
            return false;
        }
        WaitSet set = waitSets.get(l.waitSet());
        return set == null || !set.mayWake(thread);
    }

    /** The thread {@code thread}'s disabled step waits for, if one explored thread holds what it needs. */
    Optional<Integer> holderBlocking(int thread, Object detail) {
        Object lock = detail instanceof SyncOp op ? op.takes() : null;
        if (lock == null || detail instanceof SyncOp.Until) {
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
            if (free(t.lock(), thread, !t.shared())) {
                take(t.lock(), thread, t.shared());
            }
        } else if (op instanceof SyncOp.Release r) {
            give(r.lock(), thread, r.shared());
        } else if (op instanceof SyncOp.Wait w) {
            give(w.lock(), thread, false);
            waitSet(w.waitSet()).waiting.add(thread);
        } else if (op instanceof SyncOp.Leave l) {
            WaitSet set = waitSet(l.waitSet());
            l.notified().set(set.mayWake(thread));
            set.leave(thread);
            set.woken.add(thread);
        } else if (op instanceof SyncOp.Reacquire r) {
            waitSet(r.waitSet()).leave(thread);
            owners.put(r.lock(), thread);
        } else if (op instanceof SyncOp.Notify n) {
            notify(waitSet(n.waitSet()), n.all());
        } else if (op instanceof SyncOp.Convert c) {
            long stamp = c.convert().getAsLong(); // only the granted worker could run now, and it is paused
            c.result().set(stamp);
            if (stamp != 0 && c.from() != c.to()) {
                if (c.from() != SyncOp.Hold.NONE) {
                    give(c.lock(), thread, c.from() == SyncOp.Hold.READ);
                }
                if (c.to() != SyncOp.Hold.NONE) {
                    take(c.lock(), thread, c.to() == SyncOp.Hold.READ);
                }
            }
        }
    }

    private static void notify(WaitSet set, boolean all) {
        if (all) {
            set.woken.addAll(set.waiting);
            set.waiting.clear();
            set.pending.clear();
        } else if (set.waiting.size() > set.pending.size()) {
            set.pending.add(new HashSet<>(set.waiting));
        } // else every waiter has a notification coming already: the JVM's wait set is empty, this one is lost
    }

    /** Forgets what a finished thread held (an unwound body gave its monitors back). */
    void releaseAll(int thread) {
        owners.values().removeIf(owner -> owner == thread);
        readers.values().forEach(rs -> rs.removeIf(r -> r == thread));
        waitSets.values().forEach(ws -> ws.leave(thread));
    }

    private WaitSet waitSet(Object key) {
        return waitSets.computeIfAbsent(key, k -> new WaitSet());
    }

    private boolean waiting(Object waitSet, int thread) {
        WaitSet set = waitSets.get(waitSet);
        return set != null && (set.waiting.contains(thread) || set.woken.contains(thread));
    }

    /**
     * Whether {@code thread} may take {@code lock} now. A write take waits for every reader, the
     * thread's own too (a {@code ReentrantReadWriteLock} never upgrades); a {@code StampedLock} is not
     * reentrant at all, so its own holder waits for itself.
     */
    private boolean free(Object lock, int thread, boolean exclusive) {
        Integer owner = owners.get(lock);
        if (owner != null && (owner != thread || lock instanceof StampedLock)) {
            return false;
        }
        return !exclusive || readers.getOrDefault(lock, List.of()).isEmpty();
    }

    private void take(Object lock, int thread, boolean shared) {
        if (shared) {
            readers.computeIfAbsent(lock, l -> new ArrayList<>()).add(thread);
        } else {
            owners.put(lock, thread);
        }
    }

    /** Gives {@code lock} back; a {@code StampedLock} has no owner, so any thread may release what another took. */
    private void give(Object lock, int thread, boolean shared) {
        boolean ownerless = lock instanceof StampedLock;
        if (shared) {
            List<Integer> rs = readers.get(lock);
            if (rs != null && !rs.remove(Integer.valueOf(thread)) && ownerless && !rs.isEmpty()) {
                rs.remove(0);
            }
        } else if (ownerless) {
            owners.remove(lock);
        } else {
            owners.remove(lock, thread);
        }
    }
}

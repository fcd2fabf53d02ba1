package dev.frontrun.internal.engine.run;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The client-side registry's prediction of who holds which database row lock, within one
 * execution. It predicts, and forbids only a READ COMMITTED statement by key a surely held row would only delay
 * ({@link #heldFirmlyByOther}): any other step that takes a lock another thread holds is
 * started anyway and is expected to wait inside the database (the scheduler then looks for the
 * wait at once); when the holder releases, the first thread queued for the lock is predicted to
 * hold it. Whether a statement really waits is always what PostgreSQL says.
 */
final class LockPredictions {

    private final Map<String, Integer> holders = new HashMap<>();
    private final Map<String, Deque<Integer>> queued = new HashMap<>();
    /**
     * The locks whose holder surely holds them. Taken by a statement that locks the one existing row it names by key
     * ({@link dev.frontrun.Step.RowLocking#BY_KEY}), and since then no other write of the holder (which might insert a
     * row of that key anew). A statement that found no row gives its predicted lock back at once.
     */
    private final Set<String> firm = new HashSet<>();

    /** Whether taking {@code locks} would make {@code thread} wait for another thread. */
    boolean wouldWait(int thread, Set<String> locks) {
        for (String lock : locks) {
            Integer holder = holders.get(lock);
            if (holder != null && holder != thread) {
                return true;
            }
        }
        return false;
    }

    /** Whether another thread than {@code thread} surely holds one of {@code locks}: taking it would wait. */
    boolean heldFirmlyByOther(int thread, Set<String> locks) {
        return firmHolder(thread, locks) >= 0;
    }

    /** The other thread than {@code thread} that surely holds one of {@code locks}, or -1. */
    int firmHolder(int thread, Set<String> locks) {
        for (String lock : locks) {
            Integer holder = holders.get(lock);
            if (holder != null && holder != thread && firm.contains(lock)) {
                return holder;
            }
        }
        return -1;
    }

    /** {@code thread} takes {@code locks}: each free one it holds, each held one it queues for. */
    void take(int thread, Set<String> locks) {
        take(thread, locks, false);
    }

    /**
     * {@code thread} takes {@code locks}, {@code surely} when its step locks the existing row it names by key. Each free
     * one it holds, each held one it queues for.
     */
    void take(int thread, Set<String> locks, boolean surely) {
        for (String lock : locks) {
            Integer holder = holders.putIfAbsent(lock, thread);
            if (holder == null && surely) {
                firm.add(lock);
            } else if (holder != null && holder == thread && !surely) {
                firm.remove(lock);
            }
            if (holder != null && holder != thread) {
                Deque<Integer> queue = queued.computeIfAbsent(lock, l -> new ArrayDeque<>());
                if (!queue.contains(thread)) {
                    queue.addLast(thread);
                }
            }
        }
    }

    /** {@code thread} wrote something its row locks do not say: none of them is sure any longer. */
    void unsure(int thread) {
        holders.forEach((lock, holder) -> {
            if (holder == thread) {
                firm.remove(lock);
            }
        });
    }

    /** {@code thread} gives {@code locks} back (or stops waiting for them); the next in line is predicted to get each. */
    void release(int thread, Set<String> locks) {
        for (String lock : locks) {
            Deque<Integer> queue = queued.get(lock);
            if (queue != null) {
                queue.remove(thread);
            }
            if (holders.get(lock) != null && holders.get(lock) == thread) {
                firm.remove(lock);
            }
            if (holders.remove(lock, thread) && queue != null && !queue.isEmpty()) {
                holders.put(lock, queue.removeFirst());
            }
            if (queue != null && queue.isEmpty()) {
                queued.remove(lock);
            }
        }
    }

    /** Everything {@code thread} held or waited for: its connection was closed or abandoned. */
    void releaseAll(int thread) {
        Set<String> mine = new HashSet<>();
        holders.forEach((lock, holder) -> {
            if (holder == thread) {
                mine.add(lock);
            }
        });
        queued.forEach((lock, queue) -> {
            if (queue.contains(thread)) {
                mine.add(lock);
            }
        });
        release(thread, mine);
    }
}

package dev.frontrun.internal.engine.sync;

import static dev.frontrun.internal.engine.sync.SyncSteps.access;
import static dev.frontrun.internal.engine.sync.SyncSteps.name;
import static dev.frontrun.internal.engine.sync.SyncSteps.worker;

import dev.frontrun.Access;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.Collection;
import java.util.Deque;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;

/**
 * What instrumented code calls instead of the non-blocking operations of a queue reached through
 * {@code Collection}, {@code Queue}, {@code Deque} or {@code BlockingQueue} ({@code add}, {@code peek},
 * {@code size}, ...): on a queue the scheduler models ({@link HandoffPoints}) each is a step, one that reads
 * the queue's resource if it only looks and writes it otherwise, so its order against the other threads'
 * puts, takes and polls is explored. Any other receiver (a list, a set, a queue that is not modelled) runs
 * as it is, after one type check.
 */
public final class QueuePoints {

    private QueuePoints() {}

    // ---- Collection

    public static <E> boolean add(Collection<E> c, E e) {
        step(c, "add to", Access.WRITE);
        return c.add(e);
    }

    public static boolean remove(Collection<?> c, Object o) {
        step(c, "remove from", Access.WRITE);
        return c.remove(o);
    }

    public static boolean contains(Collection<?> c, Object o) {
        step(c, "look into", Access.READ);
        return c.contains(o);
    }

    public static int size(Collection<?> c) {
        step(c, "size of", Access.READ);
        return c.size();
    }

    public static boolean isEmpty(Collection<?> c) {
        step(c, "isEmpty of", Access.READ);
        return c.isEmpty();
    }

    public static void clear(Collection<?> c) {
        step(c, "clear", Access.WRITE);
        c.clear();
    }

    // ---- Queue (offer and poll through Queue; through BlockingQueue they are HandoffPoints')

    public static <E> boolean offer(Collection<E> c, E e) {
        step(c, "offer", Access.WRITE);
        return ((Queue<E>) c).offer(e);
    }

    public static <E> E poll(Collection<E> c) {
        step(c, "poll", Access.WRITE);
        return ((Queue<E>) c).poll();
    }

    public static <E> E remove(Collection<E> c) {
        step(c, "remove from", Access.WRITE);
        return ((Queue<E>) c).remove();
    }

    public static <E> E peek(Collection<E> c) {
        step(c, "peek", Access.READ);
        return ((Queue<E>) c).peek();
    }

    public static <E> E element(Collection<E> c) {
        step(c, "element of", Access.READ);
        return ((Queue<E>) c).element();
    }

    // ---- BlockingQueue

    public static <E> int drainTo(Collection<E> c, Collection<? super E> to) {
        step(c, "drain", Access.WRITE);
        return ((BlockingQueue<E>) c).drainTo(to);
    }

    public static int remainingCapacity(Collection<?> c) {
        step(c, "remainingCapacity of", Access.READ);
        return ((BlockingQueue<?>) c).remainingCapacity();
    }

    // ---- Deque

    public static <E> void addFirst(Collection<E> c, E e) {
        step(c, "addFirst to", Access.WRITE);
        ((Deque<E>) c).addFirst(e);
    }

    public static <E> void addLast(Collection<E> c, E e) {
        step(c, "addLast to", Access.WRITE);
        ((Deque<E>) c).addLast(e);
    }

    public static <E> boolean offerFirst(Collection<E> c, E e) {
        step(c, "offerFirst", Access.WRITE);
        return ((Deque<E>) c).offerFirst(e);
    }

    public static <E> boolean offerLast(Collection<E> c, E e) {
        step(c, "offerLast", Access.WRITE);
        return ((Deque<E>) c).offerLast(e);
    }

    public static <E> E pollFirst(Collection<E> c) {
        step(c, "pollFirst", Access.WRITE);
        return ((Deque<E>) c).pollFirst();
    }

    public static <E> E pollLast(Collection<E> c) {
        step(c, "pollLast", Access.WRITE);
        return ((Deque<E>) c).pollLast();
    }

    public static <E> E removeFirst(Collection<E> c) {
        step(c, "removeFirst of", Access.WRITE);
        return ((Deque<E>) c).removeFirst();
    }

    public static <E> E removeLast(Collection<E> c) {
        step(c, "removeLast of", Access.WRITE);
        return ((Deque<E>) c).removeLast();
    }

    public static <E> E peekFirst(Collection<E> c) {
        step(c, "peekFirst", Access.READ);
        return ((Deque<E>) c).peekFirst();
    }

    public static <E> E peekLast(Collection<E> c) {
        step(c, "peekLast", Access.READ);
        return ((Deque<E>) c).peekLast();
    }

    public static <E> E getFirst(Collection<E> c) {
        step(c, "getFirst of", Access.READ);
        return ((Deque<E>) c).getFirst();
    }

    public static <E> E getLast(Collection<E> c) {
        step(c, "getLast of", Access.READ);
        return ((Deque<E>) c).getLast();
    }

    public static <E> void push(Collection<E> c, E e) {
        step(c, "push to", Access.WRITE);
        ((Deque<E>) c).push(e);
    }

    public static <E> E pop(Collection<E> c) {
        step(c, "pop", Access.WRITE);
        return ((Deque<E>) c).pop();
    }

    /** A step on {@code c} if it is a queue the scheduler models and the caller an explored worker. */
    private static void step(Collection<?> c, String verb, Access kind) {
        if (c instanceof BlockingQueue<?> q && HandoffPoints.modelled(q)) {
            WorkerThread w = worker();
            if (w != null) {
                w.reachSchedulingPoint(Step.of(verb + " " + name(q), access(q, kind)));
            }
        }
    }
}

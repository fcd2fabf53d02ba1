package dev.frontrun.internal.engine.execution;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The names of the objects an execution's explored threads created, so that shared memory is a
 * resource per object rather than per class. DPOR compares steps across executions (sleep sets,
 * wakeup trees), so a name must denote the same object in every execution that replays the same
 * prefix: an identity hash code would not. An object is named after the thread that created it, its
 * class and how many objects of that class the thread had created before it in this execution
 * ({@code alice/Owner#0}): a function of the thread's own history, which a replay repeats.
 *
 * <p>Objects the registry does not know — created before the execution (Spring singletons, the
 * exploration's state, which its setup builds anew on another thread), by code that is not
 * instrumented, or without a constructor (clone, deserialization) — have no name here, and their
 * accesses fall back to the class-wide resource, which conflicts with every object's (coarser, never
 * finer). Kept per execution; workers of one execution may look it up at the same time.
 */
public final class ObjectNames {

    private final Map<Object, String> names = new IdentityHashMap<>();
    private final Map<String, int[]> created = new HashMap<>();

    /** Names {@code object}, created by the explored thread {@code thread}, unless it already has a name. */
    public synchronized void created(Object object, String thread) {
        if (names.containsKey(object)) {
            return; // a subclass's constructor, after its superclass's registered the object
        }
        String prefix = thread + "/" + simpleName(object.getClass());
        int index = created.computeIfAbsent(prefix, p -> new int[1])[0]++;
        names.put(object, prefix + "#" + index);
    }

    /** The object's name in this execution, or null when it was not created by an explored thread in it. */
    public synchronized String nameOf(Object object) {
        return object == null ? null : names.get(object);
    }

    private static String simpleName(Class<?> type) {
        String simple = type.getSimpleName();
        return simple.isEmpty() ? type.getName().substring(type.getName().lastIndexOf('.') + 1) : simple;
    }
}

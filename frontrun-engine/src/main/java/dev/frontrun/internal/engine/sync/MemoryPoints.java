package dev.frontrun.internal.engine.sync;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.ObjectNames;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What instrumented application code calls before touching shared memory. Non-final fields, array
 * elements, atomics and adders (a read or a write of a resource named at the site), and the
 * operations of a {@code ConcurrentHashMap} (replaced by calls here, so the key is known: one resource
 * per key, the map as a whole a weak resource that only whole-map operations conflict on). Outside an
 * exploration that instruments, every method does the original operation after one type check of
 * the current thread.
 *
 * <p>Resources are per object where the object was created in this execution by an explored thread
 * (its constructor, or an instrumented allocation site of an array, atomic or map, called
 * {@link #created}): then it has a name that is the same in every replay ({@link ObjectNames}), so
 * two requests each working on their own objects do not conflict. Any other object — a singleton, the
 * exploration's state, one made by uninstrumented code — is named after its class: a field after its
 * declaring class ({@code field:Owner.city}), an array after its element kind, an atomic after its
 * class, a map key after the key's value when it is a value (a string, an integral or decimal number,
 * an enum, a UUID). That is coarser, never finer: a per-object field access also weakly touches the
 * class-wide field, which a class-wide access conflicts with.
 */
public final class MemoryPoints {

    private static final String MAP = "map:ConcurrentHashMap";

    private MemoryPoints() {}

    private static WorkerThread worker() {
        return Thread.currentThread() instanceof WorkerThread w && w.sharedMemoryExecution() != null ? w : null;
    }

    /** After an object was created (its constructor passed its superclass's, or an allocation site's {@code new}). */
    public static void created(Object object) {
        if (Thread.currentThread() instanceof WorkerThread w) {
            Execution execution = w.sharedMemoryExecution();
            if (execution != null) {
                execution.objects().created(object, w.threadName());
            }
        }
    }

    /** Before a read of the static field (or other resource) named at the site. */
    public static void read(String resource) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of("read " + resource, new ResourceAccess(resource, Access.READ)));
        }
    }

    /** Before a write (or a read-modify-write) of the static field named at the site. */
    public static void write(String resource) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of("write " + resource, new ResourceAccess(resource, Access.WRITE)));
        }
    }

    /** Before a read of {@code target}'s field (or of the atomic {@code target}) named at the site. */
    public static void read(Object target, String resource) {
        Execution execution;
        if (Thread.currentThread() instanceof WorkerThread w && (execution = w.sharedMemoryExecution()) != null) {
            w.reachSchedulingPoint(ofObject("read ", execution, target, resource, false));
        }
    }

    /** Before a write (or a read-modify-write) of {@code target}'s field (or of the atomic {@code target}). */
    public static void write(Object target, String resource) {
        Execution execution;
        if (Thread.currentThread() instanceof WorkerThread w && (execution = w.sharedMemoryExecution()) != null) {
            w.reachSchedulingPoint(ofObject("write ", execution, target, resource, true));
        }
    }

    /** Before a load of {@code array[index]}; {@code kind} is the element kind named at the site ({@code int[]}). */
    public static void readElement(Object array, int index, String kind) {
        Execution execution;
        if (Thread.currentThread() instanceof WorkerThread w && (execution = w.sharedMemoryExecution()) != null) {
            w.reachSchedulingPoint(element("read ", execution, array, index, kind, false));
        }
    }

    /** Before a store into {@code array[index]}. */
    public static void writeElement(Object array, int index, String kind) {
        Execution execution;
        if (Thread.currentThread() instanceof WorkerThread w && (execution = w.sharedMemoryExecution()) != null) {
            w.reachSchedulingPoint(element("write ", execution, array, index, kind, true));
        }
    }

    /**
     * The step of an access to a field (or atomic) of {@code target}. Its own resource and a weak touch of
     * the class-wide one when the object has a name, else the class-wide one. The weak touch orders it
     * against class-wide accesses: those made before the object got its name (an uninstrumented
     * superclass's constructor calling an overridden method), and those of an execution in which the
     * same object had no name (one that outlived the execution that created it).
     */
    private static Step ofObject(String verb, Execution execution, Object target, String resource, boolean writes) {
        String name = execution.objects().nameOf(target);
        if (name == null) {
            return Step.of(verb + resource, new ResourceAccess(resource, writes ? Access.WRITE : Access.READ));
        }
        String own = resource + "@" + name;
        return Step.of(
                verb + own,
                List.of(
                        new ResourceAccess(own, writes ? Access.WRITE : Access.READ),
                        new ResourceAccess(resource, writes ? Access.WEAK_WRITE : Access.WEAK_READ)));
    }

    /** The step of an access to an array cell: the cell of a named array (and weakly its kind), else the kind. */
    private static Step element(
            String verb, Execution execution, Object array, int index, String kind, boolean writes) {
        String name = execution.objects().nameOf(array);
        String all = "array:" + kind;
        if (name == null) {
            return Step.of(verb + all, new ResourceAccess(all, writes ? Access.WRITE : Access.READ));
        }
        String cell = "array:" + name + "[" + index + "]";
        return Step.of(
                verb + cell,
                List.of(
                        new ResourceAccess(cell, writes ? Access.WRITE : Access.READ),
                        new ResourceAccess(all, writes ? Access.WEAK_WRITE : Access.WEAK_READ)));
    }

    // ---- ConcurrentHashMap, per key (calls through Map, ConcurrentMap or ConcurrentHashMap)

    public static Object get(Map<Object, Object> map, Object key) {
        key(map, key, false, "get");
        return map.get(key);
    }

    public static Object getOrDefault(Map<Object, Object> map, Object key, Object otherwise) {
        key(map, key, false, "get");
        return map.getOrDefault(key, otherwise);
    }

    public static boolean containsKey(Map<Object, Object> map, Object key) {
        key(map, key, false, "containsKey");
        return map.containsKey(key);
    }

    public static Object put(Map<Object, Object> map, Object key, Object value) {
        key(map, key, true, "put");
        return map.put(key, value);
    }

    public static Object putIfAbsent(Map<Object, Object> map, Object key, Object value) {
        key(map, key, true, "putIfAbsent");
        return map.putIfAbsent(key, value);
    }

    public static Object remove(Map<Object, Object> map, Object key) {
        key(map, key, true, "remove");
        return map.remove(key);
    }

    public static boolean remove(Map<Object, Object> map, Object key, Object value) {
        key(map, key, true, "remove");
        return map.remove(key, value);
    }

    public static Object replace(Map<Object, Object> map, Object key, Object value) {
        key(map, key, true, "replace");
        return map.replace(key, value);
    }

    public static boolean replace(Map<Object, Object> map, Object key, Object expected, Object value) {
        key(map, key, true, "replace");
        return map.replace(key, expected, value);
    }

    public static Object computeIfAbsent(Map<Object, Object> map, Object key, Function<Object, Object> function) {
        key(map, key, true, "computeIfAbsent");
        return map.computeIfAbsent(key, function);
    }

    public static Object computeIfPresent(
            Map<Object, Object> map, Object key, BiFunction<Object, Object, Object> function) {
        key(map, key, true, "computeIfPresent");
        return map.computeIfPresent(key, function);
    }

    public static Object compute(Map<Object, Object> map, Object key, BiFunction<Object, Object, Object> function) {
        key(map, key, true, "compute");
        return map.compute(key, function);
    }

    public static Object merge(
            Map<Object, Object> map, Object key, Object value, BiFunction<Object, Object, Object> function) {
        key(map, key, true, "merge");
        return map.merge(key, value, function);
    }

    public static int size(Map<Object, Object> map) {
        whole(map, false, "size");
        return map.size();
    }

    public static boolean isEmpty(Map<Object, Object> map) {
        whole(map, false, "isEmpty");
        return map.isEmpty();
    }

    public static boolean containsValue(Map<Object, Object> map, Object value) {
        whole(map, false, "containsValue");
        return map.containsValue(value);
    }

    public static void clear(Map<Object, Object> map) {
        whole(map, true, "clear");
        map.clear();
    }

    private static void key(Map<?, ?> map, Object key, boolean writes, String verb) {
        Execution execution;
        if (!(map instanceof ConcurrentHashMap)
                || !(Thread.currentThread() instanceof WorkerThread w)
                || (execution = w.sharedMemoryExecution()) == null) {
            return;
        }
        String whole = mapName(execution, map);
        String name = keyName(key);
        if (name == null) {
            w.reachSchedulingPoint(
                    Step.of(verb + " " + whole, new ResourceAccess(whole, writes ? Access.WRITE : Access.READ)));
            return;
        }
        String resource = whole + "[" + name + "]";
        w.reachSchedulingPoint(Step.of(
                verb + " " + resource,
                List.of(
                        new ResourceAccess(resource, writes ? Access.WRITE : Access.READ),
                        new ResourceAccess(whole, writes ? Access.WEAK_WRITE : Access.WEAK_READ))));
    }

    private static void whole(Map<?, ?> map, boolean writes, String verb) {
        Execution execution;
        if (map instanceof ConcurrentHashMap
                && Thread.currentThread() instanceof WorkerThread w
                && (execution = w.sharedMemoryExecution()) != null) {
            String whole = mapName(execution, map);
            w.reachSchedulingPoint(
                    Step.of(verb + " " + whole, new ResourceAccess(whole, writes ? Access.WRITE : Access.READ)));
        }
    }

    /**
     * A map's resource: its own name when created in this execution (at an instrumented {@code new}, before
     * any operation on it), else every such map is one.
     */
    private static String mapName(Execution execution, Map<?, ?> map) {
        String name = execution.objects().nameOf(map);
        return name == null ? MAP : "map:" + name;
    }

    /** A key's name when it is a value whose text is the same in every execution, else null (the whole map). */
    private static String keyName(Object key) {
        if (key instanceof String
                || key instanceof Enum<?>
                || key instanceof UUID
                || key instanceof Character
                || key instanceof Boolean
                || key instanceof Integer
                || key instanceof Long
                || key instanceof Short
                || key instanceof Byte
                || key instanceof java.math.BigInteger
                || key instanceof java.math.BigDecimal) {
            return key.getClass().getSimpleName() + " " + key;
        }
        return null;
    }
}

package dev.frontrun.internal.engine;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What instrumented application code calls before touching shared memory: non-final fields, array
 * elements, atomics and adders (a read or a write of a resource named at the site), and the
 * operations of a {@code ConcurrentHashMap} (replaced by calls here, so the key is known: one resource
 * per key, the map as a whole a weak resource that only whole-map operations conflict on). Outside an
 * exploration that instruments, every method does the original operation after one type check of
 * the current thread.
 *
 * <p>Resources are named after the declaring class and field (all instances of a class share one
 * resource per field), the array's element kind, the atomic's class, and the map key's value when
 * it is a value (a string, an integral or decimal number, an enum, a UUID) — coarser than per object, never finer, and
 * the same from one execution to the next.
 */
public final class MemoryPoints {

    private static final String MAP = "map:ConcurrentHashMap";

    private MemoryPoints() {
    }

    private static WorkerThread worker() {
        return Thread.currentThread() instanceof WorkerThread w && w.sharedMemoryActive() ? w : null;
    }

    /** Before a read of the resource named at the site (a field, an array's elements, an atomic). */
    public static void read(String resource) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of("read " + resource, new ResourceAccess(resource, Access.READ)));
        }
    }

    /** Before a write (or a read-modify-write) of the resource named at the site. */
    public static void write(String resource) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of("write " + resource, new ResourceAccess(resource, Access.WRITE)));
        }
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

    public static Object computeIfAbsent(Map<Object, Object> map, Object key,
                                         Function<Object, Object> function) {
        key(map, key, true, "computeIfAbsent");
        return map.computeIfAbsent(key, function);
    }

    public static Object computeIfPresent(Map<Object, Object> map, Object key,
                                          BiFunction<Object, Object, Object> function) {
        key(map, key, true, "computeIfPresent");
        return map.computeIfPresent(key, function);
    }

    public static Object compute(Map<Object, Object> map, Object key, BiFunction<Object, Object, Object> function) {
        key(map, key, true, "compute");
        return map.compute(key, function);
    }

    public static Object merge(Map<Object, Object> map, Object key, Object value,
                               BiFunction<Object, Object, Object> function) {
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
        WorkerThread w;
        if (!(map instanceof ConcurrentHashMap) || (w = worker()) == null) {
            return;
        }
        String name = keyName(key);
        if (name == null) {
            w.reachSchedulingPoint(Step.of(verb + " " + MAP, new ResourceAccess(MAP, writes ? Access.WRITE : Access.READ)));
            return;
        }
        String resource = MAP + "[" + name + "]";
        w.reachSchedulingPoint(Step.of(verb + " " + resource, List.of(
                new ResourceAccess(resource, writes ? Access.WRITE : Access.READ),
                new ResourceAccess(MAP, writes ? Access.WEAK_WRITE : Access.WEAK_READ))));
    }

    private static void whole(Map<?, ?> map, boolean writes, String verb) {
        WorkerThread w;
        if (map instanceof ConcurrentHashMap && (w = worker()) != null) {
            w.reachSchedulingPoint(Step.of(verb + " " + MAP, new ResourceAccess(MAP, writes ? Access.WRITE : Access.READ)));
        }
    }

    /** A key's name when it is a value whose text is the same in every execution, else null (the whole map). */
    private static String keyName(Object key) {
        if (key instanceof String || key instanceof Enum<?> || key instanceof UUID || key instanceof Character
                || key instanceof Boolean || key instanceof Integer || key instanceof Long || key instanceof Short
                || key instanceof Byte || key instanceof java.math.BigInteger || key instanceof java.math.BigDecimal) {
            return key.getClass().getSimpleName() + " " + key;
        }
        return null;
    }
}

package dev.frontrun.internal.instrument;

import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.Opcodes;

/** The JDK concurrency types whose calls are memory sites: concurrent maps, atomics and adders. */
final class ConcurrentJdkCalls {

    private static final String MAP = "Ljava/util/Map;";

    /** Map operations: name + descriptor of the call → the hook's descriptor (the map first). */
    private static final Map<String, String> MAP_METHODS = Map.ofEntries(
            Map.entry("get(Ljava/lang/Object;)Ljava/lang/Object;", "(" + MAP + "Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry(
                    "getOrDefault(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("containsKey(Ljava/lang/Object;)Z", "(" + MAP + "Ljava/lang/Object;)Z"),
            Map.entry(
                    "put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry(
                    "putIfAbsent(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry(
                    "remove(Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry(
                    "remove(Ljava/lang/Object;Ljava/lang/Object;)Z",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Z"),
            Map.entry(
                    "replace(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry(
                    "replace(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z"),
            Map.entry(
                    "computeIfAbsent(Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;"),
            Map.entry(
                    "computeIfPresent(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"),
            Map.entry(
                    "compute(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"),
            Map.entry(
                    "merge(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
                    "(" + MAP
                            + "Ljava/lang/Object;Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"),
            Map.entry("size()I", "(" + MAP + ")I"),
            Map.entry("isEmpty()Z", "(" + MAP + ")Z"),
            Map.entry("containsValue(Ljava/lang/Object;)Z", "(" + MAP + "Ljava/lang/Object;)Z"),
            Map.entry("clear()V", "(" + MAP + ")V"));

    private static final Set<String> MAP_OWNERS =
            Set.of("java/util/Map", "java/util/concurrent/ConcurrentMap", "java/util/concurrent/ConcurrentHashMap");

    private static final Set<String> ATOMICS = Set.of(
            "AtomicInteger",
            "AtomicLong",
            "AtomicBoolean",
            "AtomicReference",
            "AtomicIntegerArray",
            "AtomicLongArray",
            "AtomicReferenceArray",
            "LongAdder",
            "DoubleAdder",
            "LongAccumulator",
            "DoubleAccumulator");

    /** Calls on an atomic or adder that only read it; every other call writes (a failed compare-and-set too: coarser). */
    private static final Set<String> ATOMIC_READS = Set.of(
            "get",
            "getPlain",
            "getOpaque",
            "getAcquire",
            "intValue",
            "longValue",
            "floatValue",
            "doubleValue",
            "sum",
            "length",
            "toString");

    private ConcurrentJdkCalls() {}

    /**
     * The descriptor of the {@code MemoryPoints} hook (same name, the map first) that replaces a call on a concurrent
     * map, or {@code null} when the call is not one.
     */
    static String mapHook(int opcode, String owner, String name, String descriptor) {
        if (MAP_OWNERS.contains(owner) && opcode != Opcodes.INVOKESTATIC && opcode != Opcodes.INVOKESPECIAL) {
            return MAP_METHODS.get(name + descriptor);
        }
        return null;
    }

    /** The simple name of the atomic or adder a call is made on, or {@code null} when it is on none. */
    static String atomicCalled(int opcode, String owner) {
        if (opcode == Opcodes.INVOKEVIRTUAL
                && owner.startsWith("java/util/concurrent/atomic/")
                && ATOMICS.contains(owner.substring(owner.lastIndexOf('/') + 1))) {
            return owner.substring(owner.lastIndexOf('/') + 1);
        }
        return null;
    }

    /** Whether a call of {@code method} on an atomic or adder only reads it. */
    static boolean atomicReads(String method) {
        return ATOMIC_READS.contains(method);
    }

    /** The JDK types whose objects are named where instrumented code creates them: those whose calls are sites. */
    static boolean namedAtAllocation(String type) {
        return type.equals("java/util/concurrent/ConcurrentHashMap")
                || type.startsWith("java/util/concurrent/atomic/")
                        && ATOMICS.contains(type.substring(type.lastIndexOf('/') + 1));
    }
}

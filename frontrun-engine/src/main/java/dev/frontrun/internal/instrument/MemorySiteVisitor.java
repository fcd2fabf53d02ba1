package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.MemoryPoints;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.pool.TypePool;

/**
 * Rewrites one method's shared-memory sites: a read or write of a non-final field or of an array
 * element, and a call on an atomic or an adder, is preceded by a call of {@link MemoryPoints} with the
 * resource's name as a constant; calls on a {@code ConcurrentHashMap} (through {@code Map},
 * {@code ConcurrentMap} or the class) become static calls with the same stack shape, so the key is
 * seen. Constructors' accesses to their own object's fields and static initializers are left alone:
 * the object or class is not shared yet. So are the fields of JPA entities, embeddables and mapped
 * superclasses: each transaction works on its own copies, whose shared state is the database (its
 * statements are the steps).
 */
final class MemorySiteVisitor extends MethodVisitor {

    private static final String HOOKS = Type.getInternalName(MemoryPoints.class);
    private static final String MAP = "Ljava/util/Map;";

    /** Map operations: name + descriptor of the call → the hook's descriptor (the map first). */
    private static final Map<String, String> MAP_METHODS = Map.ofEntries(
            Map.entry("get(Ljava/lang/Object;)Ljava/lang/Object;", "(" + MAP + "Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("getOrDefault(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("containsKey(Ljava/lang/Object;)Z", "(" + MAP + "Ljava/lang/Object;)Z"),
            Map.entry("put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("putIfAbsent(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("remove(Ljava/lang/Object;)Ljava/lang/Object;", "(" + MAP + "Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("remove(Ljava/lang/Object;Ljava/lang/Object;)Z", "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Z"),
            Map.entry("replace(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            Map.entry("replace(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z"),
            Map.entry("computeIfAbsent(Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;"),
            Map.entry("computeIfPresent(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"),
            Map.entry("compute(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"),
            Map.entry("merge(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
                    "(" + MAP + "Ljava/lang/Object;Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"),
            Map.entry("size()I", "(" + MAP + ")I"),
            Map.entry("isEmpty()Z", "(" + MAP + ")Z"),
            Map.entry("containsValue(Ljava/lang/Object;)Z", "(" + MAP + "Ljava/lang/Object;)Z"),
            Map.entry("clear()V", "(" + MAP + ")V"));

    private static final Set<String> MAP_OWNERS = Set.of("java/util/Map", "java/util/concurrent/ConcurrentMap",
            "java/util/concurrent/ConcurrentHashMap");

    private static final Set<String> ATOMICS = Set.of("AtomicInteger", "AtomicLong", "AtomicBoolean",
            "AtomicReference", "AtomicIntegerArray", "AtomicLongArray", "AtomicReferenceArray", "LongAdder",
            "DoubleAdder", "LongAccumulator", "DoubleAccumulator");

    /** Calls on an atomic or adder that only read it; every other call writes (a failed compare-and-set too: coarser). */
    private static final Set<String> ATOMIC_READS = Set.of("get", "getPlain", "getOpaque", "getAcquire", "intValue",
            "longValue", "floatValue", "doubleValue", "sum", "length", "toString");

    private final TypePool pool;
    private final String ownType;
    private final boolean constructor;
    private final boolean staticInitializer;

    MemorySiteVisitor(MethodVisitor delegate, TypePool pool, String ownType, String methodName) {
        super(Opcodes.ASM9, delegate);
        this.pool = pool;
        this.ownType = ownType;
        this.constructor = methodName.equals("<init>");
        this.staticInitializer = methodName.equals("<clinit>");
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        boolean instance = opcode == Opcodes.GETFIELD || opcode == Opcodes.PUTFIELD;
        boolean skip = staticInitializer || constructor && instance && owner.equals(ownType)
                || name.indexOf('$') >= 0 || isFinal(owner, name) || instance && isPersistent(owner);
        if (!skip) {
            String resource = (instance ? "field:" : "static:") + owner.replace('/', '.') + "." + name;
            point(opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC ? "read" : "write", resource);
        }
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitInsn(int opcode) {
        if (!staticInitializer) {
            String loads = arrayKind(opcode, Opcodes.IALOAD);
            String stores = arrayKind(opcode, Opcodes.IASTORE);
            if (loads != null) {
                point("read", "array:" + loads);
            } else if (stores != null) {
                point("write", "array:" + stores);
            }
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (MAP_OWNERS.contains(owner) && opcode != Opcodes.INVOKESTATIC && opcode != Opcodes.INVOKESPECIAL) {
            String hook = MAP_METHODS.get(name + descriptor);
            if (hook != null) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, name, hook, false);
                return;
            }
        }
        if (opcode == Opcodes.INVOKEVIRTUAL && owner.startsWith("java/util/concurrent/atomic/")
                && ATOMICS.contains(owner.substring(owner.lastIndexOf('/') + 1))) {
            point(ATOMIC_READS.contains(name) ? "read" : "write", "atomic:" + owner.substring(owner.lastIndexOf('/') + 1));
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    private void point(String verb, String resource) {
        super.visitLdcInsn(resource);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, verb, "(Ljava/lang/String;)V", false);
    }

    /** The element kind of an array load (base IALOAD) or store (base IASTORE) opcode, or null. */
    private static String arrayKind(int opcode, int base) {
        int k = opcode - base;
        return switch (k) {
            case 0 -> "int[]";
            case 1 -> "long[]";
            case 2 -> "float[]";
            case 3 -> "double[]";
            case 4 -> "Object[]";
            case 5 -> "byte[]";
            case 6 -> "char[]";
            case 7 -> "short[]";
            default -> null;
        };
    }

    private static final Set<String> PERSISTENT = Set.of("jakarta.persistence.Entity", "jakarta.persistence.Embeddable",
            "jakarta.persistence.MappedSuperclass", "javax.persistence.Entity", "javax.persistence.Embeddable",
            "javax.persistence.MappedSuperclass");

    /** Whether {@code owner} (or a superclass) is a JPA entity, embeddable or mapped superclass. */
    private boolean isPersistent(String owner) {
        return firstInHierarchy(owner, type -> type.getDeclaredAnnotations().stream()
                .anyMatch(annotation -> PERSISTENT.contains(annotation.getAnnotationType().getName())) ? true : null)
                .orElse(false);
    }

    /** Whether the field is final (then it is not shared mutable state); unknown fields count as not final. */
    private boolean isFinal(String owner, String name) {
        return firstInHierarchy(owner, type -> {
            FieldList<FieldDescription.InDefinedShape> fields = type.getDeclaredFields()
                    .filter(net.bytebuddy.matcher.ElementMatchers.named(name));
            return fields.isEmpty() ? null : fields.getOnly().isFinal();
        }).orElse(false);
    }

    /**
     * The first non-null answer of {@code ask} walking from {@code owner} up its superclasses; empty when
     * none answers or the hierarchy cannot be resolved (then the callers assume the common case).
     */
    private <T> Optional<T> firstInHierarchy(String owner, Function<TypeDescription, T> ask) {
        TypePool.Resolution resolution = pool.describe(owner.replace('/', '.'));
        if (!resolution.isResolved()) {
            return Optional.empty();
        }
        try {
            for (TypeDescription type = resolution.resolve(); type != null; type = type.getSuperClass() == null ? null
                    : type.getSuperClass().asErasure()) {
                T answer = ask.apply(type);
                if (answer != null) {
                    return Optional.of(answer);
                }
            }
        } catch (RuntimeException unresolvable) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}

package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.sync.MemoryPoints;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.pool.TypePool;

/**
 * Rewrites one method's shared-memory sites into calls of {@link MemoryPoints}, so the scheduler sees them.
 * What counts as a site, and how objects are named, is in the package documentation.
 */
final class MemorySiteVisitor extends MethodVisitor {

    private static final String HOOKS = Type.getInternalName(MemoryPoints.class);

    private final FieldOwnerFacts owners;
    private final String ownType;
    private final String superType;
    private final boolean constructor;
    private final boolean staticInitializer;
    /**
     * The {@code new}s whose constructor call has not come yet, innermost first. The type of each to name
     * after that call (its reference was {@code dup}'ed, so a copy is left on the stack), else "".
     */
    private final Deque<String> pendingNews = new ArrayDeque<>();
    /** The type of the {@code new} just visited when it is one named at its allocation, else null. */
    private String afterNamedNew;

    private boolean constructorNamed;
    private final CoverageProbes probes = new CoverageProbes();

    MemorySiteVisitor(MethodVisitor delegate, TypePool pool, String ownType, String superType, String methodName) {
        super(Opcodes.ASM9, delegate);
        this.owners = new FieldOwnerFacts(pool);
        this.ownType = ownType;
        this.superType = superType;
        this.constructor = methodName.equals("<init>");
        this.staticInitializer = methodName.equals("<clinit>");
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        instruction();
        boolean instance = opcode == Opcodes.GETFIELD || opcode == Opcodes.PUTFIELD;
        boolean skip = staticInitializer
                || constructor && instance && owner.equals(ownType)
                || name.indexOf('$') >= 0
                || owners.isFinal(owner, name)
                || instance && owners.isPersistent(owner);
        if (!skip) {
            String resource = (instance ? "field:" : "static:") + owner.replace('/', '.') + "." + name;
            switch (opcode) {
                case Opcodes.GETSTATIC -> point("read", resource);
                case Opcodes.PUTSTATIC -> point("write", resource);
                case Opcodes.GETFIELD -> {
                    super.visitInsn(Opcodes.DUP);
                    objectPoint("read", resource);
                }
                default -> {
                    copyReceiver(new Type[] {Type.getType(descriptor)});
                    objectPoint("write", resource);
                }
            }
        }
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitInsn(int opcode) {
        if (afterNamedNew != null && opcode == Opcodes.DUP) {
            pendingNews.pop();
            pendingNews.push(afterNamedNew); // the dup'ed reference is on the stack after the constructor call
        }
        afterNamedNew = null;
        if (probes.insn(opcode)) {
            super.visitInsn(opcode); // a coverage probe: the agent's bookkeeping, not the application's memory
            return;
        }
        if (!staticInitializer) {
            String loads = arrayKind(opcode, Opcodes.IALOAD);
            String stores = arrayKind(opcode, Opcodes.IASTORE);
            if (loads != null) {
                super.visitInsn(Opcodes.DUP2); // array, index
                elementPoint("readElement", loads);
            } else if (stores != null) {
                if (opcode == Opcodes.LASTORE || opcode == Opcodes.DASTORE) {
                    super.visitInsn(Opcodes.DUP2_X2); // array, index, value(2) -> value, array, index, value
                    super.visitInsn(Opcodes.POP2);
                    super.visitInsn(Opcodes.DUP2_X2); // -> array, index, value, array, index
                } else {
                    super.visitInsn(Opcodes.DUP_X2); // array, index, value -> value, array, index, value
                    super.visitInsn(Opcodes.POP);
                    super.visitInsn(Opcodes.DUP2_X1); // -> array, index, value, array, index
                }
                elementPoint("writeElement", stores);
            }
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        afterNamedNew = null;
        probes.intInsn(opcode);
        super.visitIntInsn(opcode, operand);
        if (opcode == Opcodes.NEWARRAY) {
            created();
        }
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        afterNamedNew = null;
        probes.typeInsn(opcode, type);
        super.visitTypeInsn(opcode, type);
        if (opcode == Opcodes.ANEWARRAY) {
            created();
        } else if (opcode == Opcodes.NEW) {
            pendingNews.push("");
            afterNamedNew = ConcurrentJdkCalls.namedAtAllocation(type) ? type : null;
        }
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        instruction();
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
        created(); // the outer array; inner ones have no name (their cells are named by kind)
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        instruction();
        String hook = ConcurrentJdkCalls.mapHook(opcode, owner, name, descriptor);
        if (hook != null) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, name, hook, false);
            return;
        }
        String atomic = ConcurrentJdkCalls.atomicCalled(opcode, owner);
        if (atomic != null) {
            String verb = ConcurrentJdkCalls.atomicReads(name) ? "read" : "write";
            String resource = "atomic:" + atomic;
            if (copyReceiver(Type.getArgumentTypes(descriptor))) {
                objectPoint(verb, resource);
            } else {
                point(verb, resource); // arguments too deep to reach the atomic under them: the class (coarser)
            }
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        if (opcode == Opcodes.INVOKESPECIAL && name.equals("<init>")) {
            constructed(owner);
        }
        probes.methodInsn(opcode, name, descriptor);
    }

    /** After a constructor call: names the object of a matching {@code new}, or this object after its superclass's constructor. */
    private void constructed(String owner) {
        if (!pendingNews.isEmpty()) {
            if (pendingNews.pop().equals(owner)) {
                created(); // the dup'ed reference of the new
            }
        } else if (constructor
                && !constructorNamed
                && !staticInitializer
                && (owner.equals(superType) || owner.equals(ownType))) {
            constructorNamed = true; // super(...) or this(...): from here on this object is initialized
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "created", "(Ljava/lang/Object;)V", false);
        }
    }

    /** Names the object on top of the stack (an allocation's result), leaving it there. */
    private void created() {
        if (!staticInitializer) {
            super.visitInsn(Opcodes.DUP);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "created", "(Ljava/lang/Object;)V", false);
        }
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        afterNamedNew = null;
        probes.varInsn(opcode, varIndex);
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        instruction();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        afterNamedNew = null;
        probes.ldc(value);
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        instruction();
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        instruction();
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        instruction();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        instruction();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    /** Any instruction: a {@code dup} only counts as the new's own right after it, a probe store's parts only in a row. */
    private void instruction() {
        afterNamedNew = null;
        probes.other();
    }

    /**
     * Pushes a copy of the object under {@code arguments} (the top of the stack) above them, with dups only;
     * false (nothing pushed) when the arguments are too many to reach under: more than two one-slot values,
     * or a two-slot value with another.
     */
    private boolean copyReceiver(Type[] arguments) {
        int[] sizes = Arrays.stream(arguments).mapToInt(Type::getSize).toArray();
        if (sizes.length == 0) {
            super.visitInsn(Opcodes.DUP);
        } else if (sizes.length == 1 && sizes[0] == 1) {
            super.visitInsn(Opcodes.DUP2); // object, a -> object, a, object, a
            super.visitInsn(Opcodes.POP);
        } else if (sizes.length == 1 || sizes.length == 2 && sizes[0] == 1 && sizes[1] == 1) {
            super.visitInsn(Opcodes.DUP2_X1); // object, a(2) or a b -> a.., object, a..
            super.visitInsn(Opcodes.POP2); // -> a.., object
            super.visitInsn(Opcodes.DUP_X2); // -> object, a.., object
        } else {
            return false;
        }
        return true;
    }

    private void point(String verb, String resource) {
        super.visitLdcInsn(resource);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, verb, "(Ljava/lang/String;)V", false);
    }

    /** The object is on top of the stack, consumed by the call. */
    private void objectPoint(String verb, String resource) {
        super.visitLdcInsn(resource);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, verb, "(Ljava/lang/Object;Ljava/lang/String;)V", false);
    }

    /** The array and the index are on top of the stack, consumed by the call. */
    private void elementPoint(String hook, String kind) {
        super.visitLdcInsn(kind);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, hook, "(Ljava/lang/Object;ILjava/lang/String;)V", false);
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
}

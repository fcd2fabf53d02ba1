package dev.frontrun.internal.instrument;

import java.util.HashSet;
import java.util.Set;
import net.bytebuddy.jar.asm.ConstantDynamic;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Recognizes a coverage agent's probe stores in one method, so they are never shared-memory sites.
 *
 * <p>JaCoCo keeps a method's probe array in a local, from {@code $jacocoInit()} or its {@code $jacocoData}
 * constant (cast to {@code boolean[]}), and marks a probe with {@code aload probes; push index; iconst_1;
 * bastore}. The visitor tells this class every instruction in order; a probe's parts only count in a row.
 */
final class CoverageProbes {

    /** Locals holding the probe array. */
    private final Set<Integer> arrays = new HashSet<>();
    /** Whether the instruction just told pushed the probe array. */
    private boolean arrayPushed;
    /** How far a probe store has come: 0 (not in one) to 3 (the array, its index and true pushed). */
    private int store;

    /** Any instruction the methods below do not take. */
    void other() {
        arrayPushed = false;
        store = 0;
    }

    /** A zero-operand instruction; whether it is a probe's {@code bastore}. */
    boolean insn(int opcode) {
        int before = store;
        other();
        if (before == 1 && opcode >= Opcodes.ICONST_0 && opcode <= Opcodes.ICONST_5) {
            store = 2;
        } else if (before == 2 && opcode == Opcodes.ICONST_1) {
            store = 3;
        }
        return before == 3 && opcode == Opcodes.BASTORE;
    }

    void intInsn(int opcode) {
        int before = store;
        other();
        if (before == 1 && (opcode == Opcodes.BIPUSH || opcode == Opcodes.SIPUSH)) {
            store = 2;
        }
    }

    void ldc(Object value) {
        int before = store;
        other();
        if (before == 1 && value instanceof Integer) {
            store = 2;
        }
        arrayPushed =
                value instanceof ConstantDynamic constant && constant.getName().equals("$jacocoData");
    }

    void typeInsn(int opcode, String type) {
        boolean pushed = arrayPushed;
        other();
        arrayPushed = pushed && opcode == Opcodes.CHECKCAST && type.equals("[Z"); // the condy is typed Object
    }

    void methodInsn(int opcode, String name, String descriptor) {
        other();
        arrayPushed = opcode == Opcodes.INVOKESTATIC && name.equals("$jacocoInit") && descriptor.equals("()[Z");
    }

    void varInsn(int opcode, int varIndex) {
        boolean pushed = arrayPushed;
        other();
        if (opcode == Opcodes.ASTORE && pushed) {
            arrays.add(varIndex);
        } else if (opcode == Opcodes.ALOAD && arrays.contains(varIndex)) {
            store = 1;
        } else if (opcode == Opcodes.ASTORE) {
            arrays.remove(varIndex);
        }
    }
}

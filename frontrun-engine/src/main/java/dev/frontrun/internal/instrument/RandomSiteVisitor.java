package dev.frontrun.internal.instrument;

import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Turns every {@code UUID.randomUUID()} call into {@link RepeatableRandom#randomUUID()}, which draws from the
 * calling thread's repeatable sequence inside an execution and is {@code UUID.randomUUID()} everywhere else: a key the
 * explored code makes at random would otherwise name other rows in every execution, and the exploration could not
 * certify anything.
 */
final class RandomSiteVisitor extends MethodVisitor {

    private static final String UUID = "java/util/UUID";
    private static final String DESCRIPTOR = "()Ljava/util/UUID;";
    private static final String HOOK = Type.getInternalName(RepeatableRandom.class);

    RandomSiteVisitor(MethodVisitor delegate) {
        super(Opcodes.ASM9, delegate);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (opcode == Opcodes.INVOKESTATIC && owner.equals(UUID) && name.equals("randomUUID")
                && descriptor.equals(DESCRIPTOR)) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "randomUUID", DESCRIPTOR, false);
            return;
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }
}

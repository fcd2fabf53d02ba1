package dev.frontrun.internal.instrument;

import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import net.bytebuddy.jar.asm.Handle;
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

    /** A method reference {@code UUID::randomUUID} (a lambda's handle) too. */
    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        Object[] rewritten = arguments.clone();
        for (int i = 0; i < rewritten.length; i++) {
            if (rewritten[i] instanceof Handle handle
                    && handle.getTag() == Opcodes.H_INVOKESTATIC
                    && handle.getOwner().equals(UUID)
                    && handle.getName().equals("randomUUID")
                    && handle.getDesc().equals(DESCRIPTOR)) {
                rewritten[i] = new Handle(Opcodes.H_INVOKESTATIC, HOOK, "randomUUID", DESCRIPTOR, false);
            }
        }
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, rewritten);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (opcode == Opcodes.INVOKESTATIC
                && owner.equals(UUID)
                && name.equals("randomUUID")
                && descriptor.equals(DESCRIPTOR)) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "randomUUID", DESCRIPTOR, false);
            return;
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }
}

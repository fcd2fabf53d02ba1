package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.SyncPoints;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Rewrites one method's synchronization sites into calls of {@link SyncPoints}: a {@code
 * monitorenter}/{@code monitorexit} is preceded by a call that receives the monitor, and calls of
 * {@code Object.wait/notify/notifyAll}, {@code Lock}, {@code CountDownLatch} and {@code Thread.join}
 * become static calls with the receiver as first argument (same stack shape, no new branches).
 */
final class SyncSiteVisitor extends MethodVisitor {

    static final String HOOKS = Type.getInternalName(SyncPoints.class);
    private static final String LOCK = "java/util/concurrent/locks/Lock";
    private static final String LATCH = "java/util/concurrent/CountDownLatch";

    /** owner-independent rewrites (Object's final methods) and per-owner ones: "owner.name desc" → hook descriptor. */
    private static final Map<String, String> OBJECT_METHODS = Map.of(
            "wait()V", "(Ljava/lang/Object;)V",
            "wait(J)V", "(Ljava/lang/Object;J)V",
            "wait(JI)V", "(Ljava/lang/Object;JI)V",
            "notify()V", "(Ljava/lang/Object;)V",
            "notifyAll()V", "(Ljava/lang/Object;)V");

    private static final Map<String, String> LOCK_METHODS = Map.of(
            "lock()V", "(L" + LOCK + ";)V",
            "lockInterruptibly()V", "(L" + LOCK + ";)V",
            "tryLock()Z", "(L" + LOCK + ";)Z",
            "tryLock(JLjava/util/concurrent/TimeUnit;)Z", "(L" + LOCK + ";JLjava/util/concurrent/TimeUnit;)Z",
            "unlock()V", "(L" + LOCK + ";)V");

    private static final Map<String, String> LATCH_METHODS = Map.of(
            "await()V", "(L" + LATCH + ";)V",
            "await(JLjava/util/concurrent/TimeUnit;)Z", "(L" + LATCH + ";JLjava/util/concurrent/TimeUnit;)Z",
            "countDown()V", "(L" + LATCH + ";)V");

    SyncSiteVisitor(MethodVisitor delegate) {
        super(Opcodes.ASM9, delegate);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT) {
            super.visitInsn(Opcodes.DUP);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS,
                    opcode == Opcodes.MONITORENTER ? "monitorEnter" : "monitorExit", "(Ljava/lang/Object;)V", false);
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        String hook = hookDescriptor(opcode, owner, name + descriptor);
        if (hook != null) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, name, hook, false);
        } else {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
    }

    private static String hookDescriptor(int opcode, String owner, String method) {
        if (opcode == Opcodes.INVOKEVIRTUAL && OBJECT_METHODS.containsKey(method)) {
            return OBJECT_METHODS.get(method);
        }
        if (opcode == Opcodes.INVOKEINTERFACE && owner.equals(LOCK)
                || opcode == Opcodes.INVOKEVIRTUAL && owner.equals("java/util/concurrent/locks/ReentrantLock")) {
            return LOCK_METHODS.get(method);
        }
        if (opcode == Opcodes.INVOKEVIRTUAL && owner.equals(LATCH)) {
            return LATCH_METHODS.get(method);
        }
        if (opcode == Opcodes.INVOKEVIRTUAL && owner.equals("java/lang/Thread") && method.equals("join()V")) {
            return "(Ljava/lang/Thread;)V";
        }
        return null;
    }
}

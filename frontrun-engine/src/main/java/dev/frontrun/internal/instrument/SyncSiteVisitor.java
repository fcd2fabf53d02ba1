package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.sync.HandoffPoints;
import dev.frontrun.internal.engine.sync.QueuePoints;
import dev.frontrun.internal.engine.sync.StampedLockPoints;
import dev.frontrun.internal.engine.sync.SyncPoints;
import dev.frontrun.internal.engine.sync.UnmodelledHandoffs;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Rewrites one method's synchronization sites into calls of the engine's runtimes. A {@code
 * monitorenter}/{@code monitorexit} is preceded by a call that receives the monitor, and calls of
 * {@code Object.wait/notify/notifyAll}, {@code Lock} (and the read-write lock views), {@code Condition},
 * {@code StampedLock}, {@code Semaphore}, {@code BlockingQueue} (and the other operations of a queue,
 * through whichever collection interface), {@code Phaser}, {@code CyclicBarrier},
 * {@code CountDownLatch}
 * and {@code Thread.join} become static calls with the receiver as first argument (same stack shape,
 * no new branches).
 */
final class SyncSiteVisitor extends MethodVisitor {

    static final String HOOKS = Type.getInternalName(SyncPoints.class);

    /** Calls on {@code owners} (by {@code opcode}) named in {@code methods} go to the same-named method of {@code hooks}. */
    private record Rule(int opcode, Set<String> owners, String receiver, String hooks, Set<String> methods) {

        /** The hook's descriptor: the call's, with the receiver first (a static call has none). */
        String hookDescriptor(String descriptor) {
            return opcode == Opcodes.INVOKESTATIC ? descriptor : "(L" + receiver + ";" + descriptor.substring(1);
        }
    }

    private static final String LOCK = "java/util/concurrent/locks/Lock";
    private static final String CONDITION = "java/util/concurrent/locks/Condition";
    private static final String QUEUE = "java/util/concurrent/BlockingQueue";
    private static final String TIMED = "JLjava/util/concurrent/TimeUnit;";

    private static final Set<String> LOCK_METHODS =
            Set.of("lock()V", "lockInterruptibly()V", "tryLock()Z", "tryLock(" + TIMED + ")Z", "unlock()V");
    private static final Set<String> QUEUE_METHODS = Set.of(
            "put(Ljava/lang/Object;)V",
            "take()Ljava/lang/Object;",
            "offer(Ljava/lang/Object;)Z",
            "offer(Ljava/lang/Object;" + TIMED + ")Z",
            "poll()Ljava/lang/Object;",
            "poll(" + TIMED + ")Ljava/lang/Object;");

    private static final String OBJECT = "Ljava/lang/Object;";
    /** The other operations of a queue, on whichever interface or class the call names (see {@link QueuePoints}). */
    private static final Set<String> COLLECTION_METHODS = Set.of(
            "add(" + OBJECT + ")Z",
            "remove(" + OBJECT + ")Z",
            "contains(" + OBJECT + ")Z",
            "size()I",
            "isEmpty()Z",
            "clear()V");

    private static final Set<String> QUEUE_ONLY_METHODS = Set.of(
            "offer(" + OBJECT + ")Z", "poll()" + OBJECT, "remove()" + OBJECT, "peek()" + OBJECT, "element()" + OBJECT);
    private static final Set<String> BLOCKING_QUEUE_METHODS =
            Set.of("drainTo(Ljava/util/Collection;)I", "remainingCapacity()I");
    private static final Set<String> DEQUE_METHODS = Set.of(
            "addFirst(" + OBJECT + ")V",
            "addLast(" + OBJECT + ")V",
            "offerFirst(" + OBJECT + ")Z",
            "offerLast(" + OBJECT + ")Z",
            "pollFirst()" + OBJECT,
            "pollLast()" + OBJECT,
            "removeFirst()" + OBJECT,
            "removeLast()" + OBJECT,
            "peekFirst()" + OBJECT,
            "peekLast()" + OBJECT,
            "getFirst()" + OBJECT,
            "getLast()" + OBJECT,
            "push(" + OBJECT + ")V",
            "pop()" + OBJECT);
    private static final Set<String> MODELLED_QUEUES = Set.of(
            "java/util/concurrent/ArrayBlockingQueue",
            "java/util/concurrent/LinkedBlockingQueue",
            "java/util/concurrent/LinkedBlockingDeque",
            "java/util/concurrent/PriorityBlockingQueue");
    private static final String COLLECTION = "java/util/Collection";
    private static final String TRANSFER_QUEUE = "java/util/concurrent/TransferQueue";
    private static final Set<String> TRANSFER_METHODS =
            Set.of("transfer(" + OBJECT + ")V", "tryTransfer(" + OBJECT + ")Z", "tryTransfer(" + OBJECT + TIMED + ")Z");
    private static final String UNMODELLED = Type.getInternalName(UnmodelledHandoffs.class);
    private static final String QUEUE_POINTS = Type.getInternalName(QueuePoints.class);

    private static final List<Rule> RULES = List.of(
            new Rule(Opcodes.INVOKEINTERFACE, Set.of(LOCK), LOCK, HOOKS, LOCK_METHODS),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of(
                            "java/util/concurrent/locks/ReentrantLock",
                            "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock",
                            "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock"),
                    LOCK,
                    HOOKS,
                    LOCK_METHODS),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of(CONDITION),
                    CONDITION,
                    HOOKS,
                    Set.of(
                            "await()V",
                            "awaitUninterruptibly()V",
                            "await(" + TIMED + ")Z",
                            "awaitNanos(J)J",
                            "awaitUntil(Ljava/util/Date;)Z",
                            "signal()V",
                            "signalAll()V")),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/CountDownLatch"),
                    "java/util/concurrent/CountDownLatch",
                    HOOKS,
                    Set.of("await()V", "await(" + TIMED + ")Z", "countDown()V")),
            new Rule(Opcodes.INVOKEVIRTUAL, Set.of("java/lang/Thread"), "java/lang/Thread", HOOKS, Set.of("join()V")),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/locks/StampedLock"),
                    "java/util/concurrent/locks/StampedLock",
                    Type.getInternalName(StampedLockPoints.class),
                    Set.of(
                            "writeLock()J",
                            "writeLockInterruptibly()J",
                            "readLock()J",
                            "readLockInterruptibly()J",
                            "tryWriteLock()J",
                            "tryReadLock()J",
                            "tryWriteLock(" + TIMED + ")J",
                            "tryReadLock(" + TIMED + ")J",
                            "unlockWrite(J)V",
                            "unlockRead(J)V",
                            "unlock(J)V",
                            "tryOptimisticRead()J",
                            "validate(J)Z",
                            "tryConvertToWriteLock(J)J",
                            "tryConvertToReadLock(J)J",
                            "tryConvertToOptimisticRead(J)J",
                            "tryUnlockWrite()Z",
                            "tryUnlockRead()Z")),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/Semaphore"),
                    "java/util/concurrent/Semaphore",
                    Type.getInternalName(HandoffPoints.class),
                    Set.of(
                            "acquire()V",
                            "acquire(I)V",
                            "acquireUninterruptibly()V",
                            "acquireUninterruptibly(I)V",
                            "tryAcquire()Z",
                            "tryAcquire(I)Z",
                            "tryAcquire(" + TIMED + ")Z",
                            "tryAcquire(I" + TIMED + ")Z",
                            "release()V",
                            "release(I)V")),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of(QUEUE, "java/util/concurrent/BlockingDeque", TRANSFER_QUEUE),
                    QUEUE,
                    Type.getInternalName(HandoffPoints.class),
                    QUEUE_METHODS),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of(
                            "java/util/concurrent/ArrayBlockingQueue",
                            "java/util/concurrent/LinkedBlockingQueue",
                            "java/util/concurrent/LinkedBlockingDeque",
                            "java/util/concurrent/PriorityBlockingQueue"),
                    QUEUE,
                    Type.getInternalName(HandoffPoints.class),
                    QUEUE_METHODS),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of(
                            COLLECTION,
                            "java/util/Queue",
                            "java/util/Deque",
                            QUEUE,
                            "java/util/concurrent/BlockingDeque"),
                    COLLECTION,
                    QUEUE_POINTS,
                    COLLECTION_METHODS),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    MODELLED_QUEUES,
                    COLLECTION,
                    QUEUE_POINTS,
                    union(COLLECTION_METHODS, QUEUE_ONLY_METHODS, BLOCKING_QUEUE_METHODS, DEQUE_METHODS)),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of("java/util/Queue", "java/util/Deque"),
                    COLLECTION,
                    QUEUE_POINTS,
                    QUEUE_ONLY_METHODS),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of(QUEUE, "java/util/concurrent/BlockingDeque"),
                    COLLECTION,
                    QUEUE_POINTS,
                    union(
                            Set.of("remove()" + OBJECT, "peek()" + OBJECT, "element()" + OBJECT),
                            BLOCKING_QUEUE_METHODS)),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of("java/util/Deque", "java/util/concurrent/BlockingDeque"),
                    COLLECTION,
                    QUEUE_POINTS,
                    DEQUE_METHODS),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of(
                            "java/util/concurrent/SynchronousQueue",
                            "java/util/concurrent/LinkedTransferQueue",
                            "java/util/concurrent/DelayQueue"),
                    QUEUE,
                    Type.getInternalName(HandoffPoints.class),
                    QUEUE_METHODS),
            new Rule(
                    Opcodes.INVOKEINTERFACE,
                    Set.of("java/util/concurrent/TransferQueue"),
                    TRANSFER_QUEUE,
                    UNMODELLED,
                    TRANSFER_METHODS),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/LinkedTransferQueue"),
                    TRANSFER_QUEUE,
                    UNMODELLED,
                    TRANSFER_METHODS),
            new Rule(
                    Opcodes.INVOKESTATIC,
                    Set.of("java/util/concurrent/locks/LockSupport"),
                    "java/util/concurrent/locks/LockSupport",
                    UNMODELLED,
                    Set.of(
                            "park()V",
                            "park(" + OBJECT + ")V",
                            "parkNanos(J)V",
                            "parkNanos(" + OBJECT + "J)V",
                            "parkUntil(J)V",
                            "parkUntil(" + OBJECT + "J)V",
                            "unpark(Ljava/lang/Thread;)V")),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/Exchanger"),
                    "java/util/concurrent/Exchanger",
                    UNMODELLED,
                    Set.of("exchange(" + OBJECT + ")" + OBJECT, "exchange(" + OBJECT + TIMED + ")" + OBJECT)),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/CyclicBarrier"),
                    "java/util/concurrent/CyclicBarrier",
                    Type.getInternalName(HandoffPoints.class),
                    Set.of("await()I", "await(" + TIMED + ")I")),
            new Rule(
                    Opcodes.INVOKEVIRTUAL,
                    Set.of("java/util/concurrent/Phaser"),
                    "java/util/concurrent/Phaser",
                    Type.getInternalName(HandoffPoints.class),
                    Set.of(
                            "register()I",
                            "bulkRegister(I)I",
                            "arrive()I",
                            "arriveAndDeregister()I",
                            "arriveAndAwaitAdvance()I",
                            "awaitAdvance(I)I",
                            "awaitAdvanceInterruptibly(I)I",
                            "awaitAdvanceInterruptibly(I" + TIMED + ")I")));

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        return Arrays.stream(sets).flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());
    }

    /** Object's final methods: rewritten whatever the receiver's static type. */
    private static final Set<String> OBJECT_METHODS =
            Set.of("wait()V", "wait(J)V", "wait(JI)V", "notify()V", "notifyAll()V");

    SyncSiteVisitor(MethodVisitor delegate) {
        super(Opcodes.ASM9, delegate);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT) {
            super.visitInsn(Opcodes.DUP);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    HOOKS,
                    opcode == Opcodes.MONITORENTER ? "monitorEnter" : "monitorExit",
                    "(Ljava/lang/Object;)V",
                    false);
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        String method = name + descriptor;
        if (opcode == Opcodes.INVOKEVIRTUAL && OBJECT_METHODS.contains(method)) {
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC, HOOKS, name, "(Ljava/lang/Object;" + descriptor.substring(1), false);
            return;
        }
        for (Rule rule : RULES) {
            if (rule.opcode() == opcode
                    && rule.owners().contains(owner)
                    && rule.methods().contains(method)) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, rule.hooks(), name, rule.hookDescriptor(descriptor), false);
                return;
            }
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }
}

package dev.frontrun.internal.engine.sync;

import java.lang.reflect.Field;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Which lock a lock view or a condition belongs to. The read and write views of one
 * {@code ReentrantReadWriteLock} share its synchronizer but name no public owner, and a condition
 * names its lock nowhere in the public API: both are read from the JDK's private fields, which the
 * instrumentation opens to Frontrun when it attaches ({@code java.util.concurrent.locks} only). When
 * they cannot be read, the answers are null and the operation runs as it is (the thread-state
 * inference covers it).
 */
final class LockViews {

    private LockViews() {}

    /** The fields, read once the instrumentation has opened their package (it has, before any instrumented call). */
    private static final class Fields {
        static final Field READ_SYNC = field(ReentrantReadWriteLock.ReadLock.class, "sync");
        static final Field WRITE_SYNC = field(ReentrantReadWriteLock.WriteLock.class, "sync");
        static final Field LOCK_SYNC = field(ReentrantLock.class, "sync");
        static final Field CONDITION_OWNER = field(AbstractQueuedSynchronizer.ConditionObject.class, "this$0");

        private static Field field(Class<?> type, String name) {
            try {
                Field f = type.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    }

    /** The synchronizer shared by the read and write views of one read-write lock, or null. */
    static Object readWriteSync(Object view) {
        if (view instanceof ReentrantReadWriteLock.ReadLock) {
            return read(Fields.READ_SYNC, view);
        }
        return view instanceof ReentrantReadWriteLock.WriteLock ? read(Fields.WRITE_SYNC, view) : null;
    }

    /** The synchronizer of a {@code ReentrantLock}, or null. */
    static Object lockSync(ReentrantLock lock) {
        return read(Fields.LOCK_SYNC, lock);
    }

    /** The synchronizer a condition of a JDK lock belongs to, or null. */
    static Object conditionSync(Condition condition) {
        return condition instanceof AbstractQueuedSynchronizer.ConditionObject
                ? read(Fields.CONDITION_OWNER, condition)
                : null;
    }

    private static Object read(Field field, Object target) {
        try {
            return field == null ? null : field.get(target);
        } catch (IllegalAccessException e) {
            return null;
        }
    }
}

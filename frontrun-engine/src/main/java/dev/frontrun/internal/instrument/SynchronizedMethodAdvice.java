package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.sync.SyncPoints;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into the synchronized methods of instrumented classes. Their monitor, which the JVM takes
 * before the method's first instruction, becomes a scheduling point at the start and end of the body.
 */
final class SynchronizedMethodAdvice {

    private SynchronizedMethodAdvice() {}

    @Advice.OnMethodEnter
    static void enter(@Advice.This(optional = true) Object self, @Advice.Origin Class<?> type) {
        SyncPoints.synchronizedMethodEnter(self != null ? self : type);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.This(optional = true) Object self, @Advice.Origin Class<?> type) {
        SyncPoints.synchronizedMethodExit(self != null ? self : type);
    }
}

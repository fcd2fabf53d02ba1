package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.execution.ClassInitialization;
import net.bytebuddy.asm.Advice;

/** Inlined into the static initializers of instrumented classes: what they run is never a scheduling point. */
final class ClassInitializerAdvice {

    private ClassInitializerAdvice() {}

    @Advice.OnMethodEnter
    static void enter() {
        ClassInitialization.entered();
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
        ClassInitialization.left();
    }
}

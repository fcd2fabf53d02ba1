package dev.frontrun.sync.plain;

/** A superclass outside the instrumented packages whose constructor calls an overridden method. */
public abstract class UninstrumentedBase {

    protected UninstrumentedBase() {
        init();
    }

    protected abstract void init();
}

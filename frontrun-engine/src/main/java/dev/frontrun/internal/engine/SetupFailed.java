package dev.frontrun.internal.engine;

/** The setup supplier threw: the test is broken, the exploration ends with an ERROR verdict. */
final class SetupFailed extends RuntimeException {
    SetupFailed(Throwable cause) {
        super(cause);
    }
}

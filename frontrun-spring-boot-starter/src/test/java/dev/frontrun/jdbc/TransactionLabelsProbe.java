package dev.frontrun.jdbc;

/** Test access to the current transaction label, which the engine keeps package-private. */
public final class TransactionLabelsProbe {

    private TransactionLabelsProbe() {
    }

    public static String current() {
        return TransactionLabels.current();
    }
}

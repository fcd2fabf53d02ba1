package dev.frontrun.jdbc;

/**
 * Lets a framework name the transaction the calling thread is in (Spring's transaction hook
 * names it after the {@code @Transactional} method, e.g. {@code OwnerService.addVisit}), so
 * traces say which business operation a statement belongs to.
 */
public final class TransactionLabels {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private TransactionLabels() {
    }

    public static void set(String label) {
        CURRENT.set(label);
    }

    public static void clear() {
        CURRENT.remove();
    }

    /** The name set on the calling thread, or null. */
    public static String current() {
        return CURRENT.get();
    }
}

package dev.frontrun.anomaly;

/**
 * One edge of a dependency graph (Adya): {@code from} must precede {@code to} in any equivalent
 * serial order, because of what two of their statements did to one item.
 *
 * @param type           ww (to overwrote from's version), wr (to read from's version) or rw (to
 *                       overwrote the version from read: an anti-dependency)
 * @param from           the node the edge leaves: a transaction, or at request level a thread
 * @param to             the node the edge enters
 * @param item           what they conflict on, for people: {@code account[id=1]}
 * @param fromPosition   the trace position of from's statement
 * @param toPosition     the trace position of to's statement
 * @param fromTransaction the transaction of from's statement
 * @param toTransaction  the transaction of to's statement
 * @param membership     whether the conflict is about which rows exist (an insert or delete against a
 *                       predicate read): the stuff of phantoms
 */
public record Dependency(Type type, String from, String to, String item, int fromPosition, int toPosition,
                         String fromTransaction, String toTransaction, boolean membership) {

    /** Adya's three dependency kinds. */
    public enum Type {
        /** Write-write: {@code to} installed the next version of an item {@code from} wrote. */
        WW,
        /** Write-read: {@code to} read the version {@code from} wrote. */
        WR,
        /** Read-write (anti-dependency): {@code to} installed a version later than the one {@code from} read. */
        RW;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    @Override
    public String toString() {
        return from + " --" + type.label() + " " + item + "--> " + to;
    }
}

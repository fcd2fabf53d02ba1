package dev.frontrun;

/**
 * How a step touches a shared resource. Two accesses to the same resource conflict unless both
 * only read, or both are weak: weak kinds model coarse container-level accesses (a table's
 * membership, a map as a whole) that must not order two precise accesses on disjoint parts.
 */
public enum Access {
    READ,
    WRITE,
    WEAK_READ,
    WEAK_WRITE;

    /** The conflict table: WRITE conflicts with all; READ with WRITE and WEAK_WRITE; WEAK_READ only with WRITE. */
    public boolean conflictsWith(Access other) {
        return switch (this) {
            case WRITE -> true;
            case READ -> other == WRITE || other == WEAK_WRITE;
            case WEAK_WRITE -> other == WRITE || other == READ;
            case WEAK_READ -> other == WRITE;
        };
    }

    public boolean writes() {
        return this == WRITE || this == WEAK_WRITE;
    }
}

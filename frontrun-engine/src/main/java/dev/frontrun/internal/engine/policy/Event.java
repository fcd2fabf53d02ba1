package dev.frontrun.internal.engine.policy;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.SyncOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A step as the DPOR engine sees it. A thread and the set of (resource, access kinds) it
 * touches, sorted by interned resource id so that two events' conflict check is a merge join.
 * Database locks are not events of their own: a statement that locks a row also writes it (FOR UPDATE
 * is a write of the row), so two takes of one lock conflict through their accesses. A Java lock's take
 * and give write the lock's resource, and say which lock object they take or give ({@link SyncOp}), so
 * that a race between a give and a later blocking take is reversed where the other order is possible.
 */
final class Event {

    private static final boolean[][] CONFLICTS = conflictTable();

    final int thread;
    private final int[] resources;
    private final int[] kindMasks;
    /** The Java lock this step takes and may wait for (by identity, within one execution), or null. */
    final Object takes;
    /** The Java lock this step gives back, or null. */
    final Object gives;
    /** The Java lock (or permit) this step took if it could, waiting or not, or null. */
    final Object acquires;
    /** Whether what it takes is one of several permits (a semaphore's), which may be spare when another is given back. */
    final boolean takesPermit;
    /** Whether it takes exclusively a lock its thread held shared already (a {@code StampedLock} upgrade). */
    final boolean retakes;
    /** The database row locks it takes and gives back, as the step predicts them. */
    final RowLocks rows;

    /**
     * A step's database row locks, numbered as resources. Those it takes, those it gives back, and whether it waits
     * for the newest version of its one row ({@link Step.RowLocking#BY_KEY_NEWEST}).
     */
    record RowLocks(int[] takes, int[] gives, boolean newest) {
        static final RowLocks NONE = new RowLocks(new int[0], new int[0], false);

        static RowLocks of(Step step, ResourceNumbering ids) {
            if (step.acquires().isEmpty() && step.releases().isEmpty()) {
                return NONE;
            }
            return new RowLocks(
                    numbered(step.acquires(), ids),
                    numbered(step.releases(), ids),
                    step.locking() == Step.RowLocking.BY_KEY_NEWEST);
        }

        private static int[] numbered(Set<String> locks, ResourceNumbering ids) {
            int[] out = new int[locks.size()];
            int i = 0;
            for (String lock : locks) {
                out[i++] = ids.of(lock);
            }
            return out;
        }

        /** These locks, also giving back what {@code more} gives back (a statement that found no row to lock). */
        RowLocks alsoGiving(RowLocks more) {
            if (more.gives.length == 0) {
                return this;
            }
            int[] both = Arrays.copyOf(gives, gives.length + more.gives.length);
            System.arraycopy(more.gives, 0, both, gives.length, more.gives.length);
            return new RowLocks(takes, both, newest);
        }

        boolean takes(int lock) {
            return contains(takes, lock);
        }

        boolean gives(int lock) {
            return contains(gives, lock);
        }

        private static boolean contains(int[] locks, int lock) {
            for (int l : locks) {
                if (l == lock) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * What a step does to Java locks. The lock it takes, the one it gives back, the one it took if it could, whether
     * that is one of several permits, and whether it upgrades a lock its thread held shared.
     */
    private record JavaLocks(Object takes, Object gives, Object acquires, boolean takesPermit, boolean retakes) {
        static JavaLocks of(SyncOp sync) {
            return sync == null
                    ? new JavaLocks(null, null, null, false, false)
                    : new JavaLocks(
                            sync.takes(),
                            sync.gives(),
                            sync.acquires(),
                            sync instanceof SyncOp.Until,
                            sync instanceof SyncOp.Convert c && c.retakes());
        }
    }

    private Event(int thread, int[] resources, int[] kindMasks, JavaLocks java, RowLocks rows) {
        this.thread = thread;
        this.resources = resources;
        this.kindMasks = kindMasks;
        this.takes = java.takes();
        this.gives = java.gives();
        this.acquires = java.acquires();
        this.takesPermit = java.takesPermit();
        this.retakes = java.retakes();
        this.rows = rows;
    }

    private JavaLocks java() {
        return new JavaLocks(takes, gives, acquires, takesPermit, retakes);
    }

    static Event of(int thread, Step step, ResourceNumbering ids) {
        long[] packed = new long[step.accesses().size()]; // resource id in the high bits, kind mask in the low byte
        int i = 0;
        for (ResourceAccess a : step.accesses()) {
            packed[i++] = (long) ids.of(a.resource()) << 8 | 1 << a.kind().ordinal();
        }
        SyncOp sync = step.detail() instanceof SyncOp op ? op : null;
        return merged(thread, packed, JavaLocks.of(sync)).withRows(RowLocks.of(step, ids));
    }

    private Event withRows(RowLocks locks) {
        return locks == RowLocks.NONE ? this : new Event(thread, resources, kindMasks, java(), locks);
    }

    /** An event of the packed (resource, kind mask) pairs, sorted here; a resource's kinds merged into one mask. */
    private static Event merged(int thread, long[] packed, JavaLocks java) {
        Arrays.sort(packed);
        int[] res = new int[packed.length];
        int[] kinds = new int[packed.length];
        int n = 0;
        for (long p : packed) {
            int resource = (int) (p >>> 8);
            int kind = (int) (p & 0xFF);
            if (n > 0 && res[n - 1] == resource) {
                kinds[n - 1] |= kind;
            } else {
                res[n] = resource;
                kinds[n] = kind;
                n++;
            }
        }
        return new Event(thread, Arrays.copyOf(res, n), Arrays.copyOf(kinds, n), java, RowLocks.NONE);
    }

    /**
     * This event, also touching what {@code more} touches (its thread's own Java lock fields stay). A step that turned
     * out to do more than it announced ({@link dev.frontrun.spi.SchedulingPoints#alsoDid}).
     */
    Event with(Event more) {
        long[] packed = new long[resources.length + more.resources.length];
        for (int i = 0; i < resources.length; i++) {
            packed[i] = (long) resources[i] << 8 | kindMasks[i];
        }
        for (int j = 0; j < more.resources.length; j++) {
            packed[resources.length + j] = (long) more.resources[j] << 8 | more.kindMasks[j];
        }
        return merged(thread, packed, java()).withRows(rows.alsoGiving(more.rows));
    }

    /** Whether the two events touch a common resource in conflicting ways (program order aside). */
    boolean conflictsWith(Event other) {
        int i = 0;
        int j = 0;
        while (i < resources.length && j < other.resources.length) {
            int a = resources[i];
            int b = other.resources[j];
            if (a < b) {
                i++;
            } else if (a > b) {
                j++;
            } else {
                if (CONFLICTS[kindMasks[i]][other.kindMasks[j]]) {
                    return true;
                }
                i++;
                j++;
            }
        }
        return false;
    }

    /** Whether the step takes, gives back or waits for a Java lock. */
    /** Whether it touches any resource: a step that touches none is independent of every other. */
    boolean touchesAnything() {
        return resources.length > 0;
    }

    boolean synchronizes() {
        return takes != null || gives != null || acquires != null;
    }

    /**
     * Whether {@code other} is this step again: the same thread touching the same resources in the same ways. The
     * Java lock objects are not compared: they are the objects of one execution, named by what the step touches.
     */
    boolean sameStepAs(Event other) {
        return thread == other.thread
                && Arrays.equals(resources, other.resources)
                && Arrays.equals(kindMasks, other.kindMasks);
    }

    /**
     * Whether {@code other} touches, in the same ways, instances of the same kinds of resources ({@link
     * ResourceNumbering#shapeOf}: a table's rows whatever their keys) as this event.
     */
    boolean sameShapeAs(Event other, ResourceNumbering ids) {
        return thread == other.thread && Arrays.equals(shape(ids), other.shape(ids));
    }

    private long[] shape(ResourceNumbering ids) {
        long[] shape = new long[resources.length];
        for (int i = 0; i < resources.length; i++) {
            shape[i] = (long) ids.shapeOf(resources[i]) << 32 | kindMasks[i];
        }
        Arrays.sort(shape);
        return shape;
    }

    /** What the step touches, as resource names with their access kinds (for a diagnosis). */
    List<String> touched(ResourceNumbering ids) {
        Access[] kinds = Access.values();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < resources.length; i++) {
            StringBuilder how = new StringBuilder();
            for (Access kind : kinds) {
                if ((kindMasks[i] & 1 << kind.ordinal()) != 0) {
                    how.append(how.isEmpty() ? "" : "+").append(kind.name().toLowerCase(Locale.ROOT));
                }
            }
            out.add(how + " " + ids.name(resources[i]));
        }
        out.sort(null);
        return out;
    }

    /** Dependent in the Mazurkiewicz sense: same thread, or conflicting. */
    boolean dependsOn(Event other) {
        return thread == other.thread || conflictsWith(other);
    }

    private static boolean[][] conflictTable() {
        Access[] kinds = Access.values();
        int size = 1 << kinds.length;
        boolean[][] table = new boolean[size][size];
        for (int m1 = 0; m1 < size; m1++) {
            for (int m2 = 0; m2 < size; m2++) {
                for (Access a : kinds) {
                    for (Access b : kinds) {
                        if ((m1 & 1 << a.ordinal()) != 0 && (m2 & 1 << b.ordinal()) != 0 && a.conflictsWith(b)) {
                            table[m1][m2] = true;
                        }
                    }
                }
            }
        }
        return table;
    }

    @Override
    public String toString() {
        return "t" + thread + ":" + resources.length + " resources";
    }
}

package dev.frontrun.internal.jdbc;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.spi.SchedulingPoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's serializable snapshot isolation as steps see it. A SERIALIZABLE transaction that read what another one
 * wrote can be doomed by that other one's commit (it completes a dangerous structure of read-write conflicts), and it
 * learns so at its next statement, whatever that statement touches: the failure (40001) comes at that statement if the
 * commit came first, at a later one or the COMMIT if not. So the commit of a serializable transaction that wrote is
 * ordered against every later statement of every serializable transaction under way, through one resource, {@link
 * #RESOURCE}: coarser than the server (which dooms only a transaction in such a structure), never finer. Once a
 * serializable transaction that wrote has committed, a statement of another one may doom a third still under way (the
 * read-write conflict it adds completes a structure through the committed writer: PostgreSQL then dooms the third,
 * which learns it at its next statement): such a statement is ordered against the others' statements too. Whether
 * a writer has committed by the time a statement runs depends on other threads' steps after it was announced, so the
 * statement tells it once it ran ({@link SchedulingPoints#alsoDid}).
 *
 * <p>Without it, the oracle's program of seed 18200165 missed an outcome: t0 inserted a note and read an item, t1
 * updated that item, read the notes and committed, and t0's next read of the notes (unrelated to t1's writes) failed
 * with 40001; the exploration ran that read only before t1's commit, where it succeeds and t0's COMMIT fails instead.
 */
final class SerializationGraph {

    /** The graph of read-write conflicts among serializable transactions; no table can be spelled so. */
    static final String RESOURCE = "sql:#ssi";

    private SerializationGraph() {
    }

    /** A statement of a serializable transaction under way: a commit since its last one may have doomed it. */
    static List<ResourceAccess> mayBeDoomed(List<ResourceAccess> accesses) {
        return with(accesses, ResourceAccess.read(RESOURCE));
    }

    /** A statement that commits writes at SERIALIZABLE (an autocommit write): it may doom others. */
    static List<ResourceAccess> mayDoom(List<ResourceAccess> accesses) {
        return with(accesses, ResourceAccess.write(RESOURCE));
    }

    /** The statement of {@code transaction} that just ran may have doomed another serializable transaction. */
    static void doomedAnotherPerhaps(String transaction) {
        SchedulingPoints.alsoDid(new Step(List.of(ResourceAccess.write(RESOURCE)), Set.of(), Set.of(),
                "a read-write conflict of " + transaction + " may doom another serializable transaction", null));
    }

    /** Whether a step writes anything. */
    static boolean writes(List<ResourceAccess> accesses) {
        return accesses.stream().anyMatch(a -> a.kind().writes());
    }

    /**
     * The accesses of a COMMIT of a transaction: one under way at SERIALIZABLE may be doomed and fail there, and if it
     * wrote, it may doom the others.
     */
    static List<ResourceAccess> atCommit(List<ResourceAccess> accesses, boolean serializableUnderWay, boolean wrote) {
        if (!serializableUnderWay) {
            return accesses;
        }
        return wrote ? mayDoom(accesses) : mayBeDoomed(accesses);
    }

    private static List<ResourceAccess> with(List<ResourceAccess> accesses, ResourceAccess graph) {
        List<ResourceAccess> out = new ArrayList<>(accesses.size() + 1);
        out.addAll(accesses);
        out.add(graph);
        return out;
    }
}

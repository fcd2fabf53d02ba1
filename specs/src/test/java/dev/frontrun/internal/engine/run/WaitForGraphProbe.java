package dev.frontrun.internal.engine.run;

import java.util.List;

/**
 * The engine's {@link WaitForGraph} (package-private), opened to the specs' conformance test: this
 * class lives in the engine's package in the specs module's test sources only.
 */
public final class WaitForGraphProbe {

    private WaitForGraphProbe() {}

    /** {@code holders.get(t)}: the names of the threads {@code t} is blocked on. */
    public static boolean hasCycle(boolean[] blocked, List<List<String>> holders, List<String> names) {
        return WaitForGraph.hasCycle(blocked, holders::get, names);
    }
}

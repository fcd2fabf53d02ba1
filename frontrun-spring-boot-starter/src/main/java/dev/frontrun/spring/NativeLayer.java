package dev.frontrun.spring;

import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import javax.sql.DataSource;

/**
 * Turns the context's setting of {@code frontrun.native} into what each of its explorations gets.
 * The setting ({@code off}, {@code auto} — the default — {@code required}) is turned into what each exploration of its {@link RaceExplorer} gets: the check
 * of the database traffic beneath JDBC and the requests to other services as scheduling points, a
 * refusal to start, a note of what went unexplored, or nothing.
 */
final class NativeLayer {

    private final NativeMode mode;

    NativeLayer(NativeMode mode) {
        this.mode = mode;
    }

    NativeMode mode() {
        return mode;
    }

    List<ExplorationHook> hooksFor(DataSource dataSource) {
        return mode.hooksFor(dataSource);
    }
}

package dev.frontrun.spring;

import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.spi.ExplorationHook;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The context's setting of {@code frontrun.native} ({@code off}, {@code auto} — the default —
 * {@code required}), turned into what each exploration of its {@link RaceExplorer} gets: the check
 * of the database traffic beneath JDBC, a refusal to start, or nothing.
 */
final class NativeLayer {

    private final NativeMode mode;

    NativeLayer(NativeMode mode) {
        this.mode = mode;
    }

    NativeMode mode() {
        return mode;
    }

    Optional<ExplorationHook> hookFor(DataSource dataSource) {
        return mode.hookFor(dataSource);
    }
}

package dev.frontrun.spring;

import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The Spring-side way to race code: a bean of the test context. Explorations run against the
 * context's {@link DataSource}, which is snapshotted before the first execution and restored
 * before every execution and after the last.
 *
 * <pre>{@code
 * Result result = races.explore()
 *     .thread("visit-1", () -> mvc.perform(post("/owners/1/pets/1/visits/new").param("description", "a")))
 *     .thread("visit-2", () -> mvc.perform(post("/owners/1/pets/1/visits/new").param("description", "b")))
 *     .invariant(() -> visitCount(1) == 2)
 *     .run();
 * }</pre>
 */
public final class RaceExplorer {

    private final Supplier<DataSource> dataSource;
    private final FrontrunProperties properties;

    public RaceExplorer(Supplier<DataSource> dataSource, FrontrunProperties properties) {
        this.dataSource = dataSource;
        this.properties = properties;
    }

    /** Starts describing an exploration with the configured defaults. */
    public RaceExploration explore() {
        return new RaceExploration(dataSource.get(), properties);
    }
}

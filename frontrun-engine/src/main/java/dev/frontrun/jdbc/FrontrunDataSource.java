package dev.frontrun.jdbc;

import dev.frontrun.internal.jdbc.DataSourceHandler;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The JDBC entry point: wraps a {@link DataSource} so that, inside a Frontrun exploration, every
 * statement and transaction boundary on its connections becomes a scheduling point that reports
 * what it touches. Outside an exploration the proxies only delegate. {@code unwrap} and
 * {@code isWrapperFor} reach the wrapped pool and the driver's own objects.
 *
 * <pre>{@code DataSource ds = FrontrunDataSource.wrap(dataSource);}</pre>
 */
public final class FrontrunDataSource {

    private FrontrunDataSource() {
    }

    /** Wraps {@code dataSource}; wrapping an already wrapped one returns it unchanged. */
    public static DataSource wrap(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "dataSource");
        return isWrapped(dataSource) ? dataSource : DataSourceHandler.wrap(dataSource);
    }

    /** Whether {@code dataSource} is a Frontrun proxy. */
    public static boolean isWrapped(DataSource dataSource) {
        return DataSourceHandler.of(dataSource) != null;
    }

    /** The data source behind a Frontrun proxy, or {@code dataSource} itself if it is not one. */
    public static DataSource unwrapped(DataSource dataSource) {
        return DataSourceHandler.unwrapped(dataSource);
    }
}

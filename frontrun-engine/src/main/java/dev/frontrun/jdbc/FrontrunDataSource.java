package dev.frontrun.jdbc;

import dev.frontrun.internal.jdbc.DataSourceHandler;
import dev.frontrun.spi.ExecutionContext;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The JDBC entry point: wraps a {@link DataSource} so that its statements become scheduling points.
 * Inside a Frontrun exploration, every statement and transaction boundary on its connections reports
 * what it touches. Outside an exploration the proxies only delegate. {@code unwrap} and
 * {@code isWrapperFor} reach the wrapped pool and the driver's own objects.
 *
 * <pre>{@code DataSource ds = FrontrunDataSource.wrap(dataSource);}</pre>
 */
public final class FrontrunDataSource {

    private FrontrunDataSource() {}

    /** Wraps {@code dataSource} with hints of its own (empty until an ORM registers some); an already wrapped one is returned unchanged. */
    public static DataSource wrap(DataSource dataSource) {
        return wrap(dataSource, new SchemaHints());
    }

    /**
     * Wraps {@code dataSource} with the ORM's {@code schemaHints} of the application it belongs to;
     * an already wrapped one is returned unchanged, with the hints it has.
     */
    public static DataSource wrap(DataSource dataSource, SchemaHints schemaHints) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(schemaHints, "schemaHints");
        return isWrapped(dataSource) ? dataSource : DataSourceHandler.wrap(dataSource, schemaHints);
    }

    /** The schema hints a Frontrun proxy carries, or empty if {@code dataSource} is not one. */
    public static Optional<SchemaHints> schemaHints(DataSource dataSource) {
        return Optional.ofNullable(DataSourceHandler.of(dataSource)).map(DataSourceHandler::schemaHints);
    }

    /** Whether {@code dataSource} is a Frontrun proxy. */
    public static boolean isWrapped(DataSource dataSource) {
        return DataSourceHandler.of(dataSource) != null;
    }

    /**
     * The SQL texts the explored thread {@code thread} ran through a Frontrun proxy so far.
     * They are listed for {@code execution}, in order, exactly as the application passed them to JDBC (one entry
     * per statement of a batch; JDBC transaction calls such as {@code commit()} are not SQL texts and
     * are not listed). What a check of the traffic beneath JDBC compares the wire with: SQL an
     * explored thread sent that is not here bypassed the proxy.
     */
    public static List<String> announcedSql(ExecutionContext execution, int thread) {
        return DataSourceHandler.announcedSql(Objects.requireNonNull(execution, "execution"), thread);
    }

    /** The data source behind a Frontrun proxy, or {@code dataSource} itself if it is not one. */
    public static DataSource unwrapped(DataSource dataSource) {
        return DataSourceHandler.unwrapped(dataSource);
    }
}

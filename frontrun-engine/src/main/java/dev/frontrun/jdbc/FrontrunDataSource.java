package dev.frontrun.jdbc;

import dev.frontrun.spi.ExecutionContext;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The JDBC entry point: wraps a {@link DataSource} so that, inside a Frontrun exploration, every
 * statement and transaction boundary on its connections becomes a scheduling point that reports
 * what it touches. Outside an exploration the proxies only delegate. {@code unwrap} and
 * {@code isWrapperFor} reach the wrapped pool and the driver's own objects.
 *
 * <pre>{@code DataSource ds = FrontrunDataSource.wrap(dataSource);}</pre>
 */
public final class FrontrunDataSource implements InvocationHandler {

    private final DataSource target;
    private final StatementAnalyzer analyzer;
    private final SchemaHints schemaHints;
    private final Object probeKey = new Object();

    private FrontrunDataSource(DataSource target, StatementAnalyzer analyzer, SchemaHints schemaHints) {
        this.target = target;
        this.analyzer = analyzer;
        this.schemaHints = schemaHints;
    }

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
        if (isWrapped(dataSource)) {
            return dataSource;
        }
        FrontrunDataSource handler = new FrontrunDataSource(dataSource, new ClassifyingAnalyzer(dataSource), schemaHints);
        return Interfaces.proxy(DataSource.class, dataSource, handler);
    }

    /** The schema hints a Frontrun proxy carries, or empty if {@code dataSource} is not one. */
    public static Optional<SchemaHints> schemaHints(DataSource dataSource) {
        return isWrapped(dataSource)
                ? Optional.of(((FrontrunDataSource) java.lang.reflect.Proxy.getInvocationHandler(dataSource)).schemaHints)
                : Optional.empty();
    }

    /** Whether {@code dataSource} is a Frontrun proxy. */
    public static boolean isWrapped(DataSource dataSource) {
        return java.lang.reflect.Proxy.isProxyClass(dataSource.getClass())
                && java.lang.reflect.Proxy.getInvocationHandler(dataSource) instanceof FrontrunDataSource;
    }

    /** The data source behind a Frontrun proxy, or {@code dataSource} itself if it is not one. */
    public static DataSource unwrapped(DataSource dataSource) {
        return isWrapped(dataSource)
                ? ((FrontrunDataSource) java.lang.reflect.Proxy.getInvocationHandler(dataSource)).target
                : dataSource;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "Frontrun[" + target + "]";
            case "getConnection" -> {
                Connection real = (Connection) Interfaces.invoke(target, method, args);
                ConnectionHandler handler = new ConnectionHandler(this, real);
                yield handler.proxy(Interfaces.proxy(Connection.class, real, handler)).proxy();
            }
            default -> Interfaces.invoke(target, method, args);
        };
    }

    StatementAnalyzer analyzer() {
        return analyzer;
    }

    /** The execution's SQL state; the first use in an execution also registers the database lock probe. */
    SqlExecutionState executionState(ExecutionContext execution) {
        SqlExecutionState state = SqlExecutionState.of(execution);
        execution.attribute(probeKey, k -> {
            PostgresLockProbe probe = execution.exploration().attribute(probeKey, key -> {
                PostgresLockProbe created = new PostgresLockProbe(target);
                execution.exploration().onClose(created);
                return created;
            });
            execution.addBlockingProbe(thread -> probe.blockedReason(thread, state, execution.threadNames()));
            return Boolean.TRUE;
        });
        return state;
    }
}

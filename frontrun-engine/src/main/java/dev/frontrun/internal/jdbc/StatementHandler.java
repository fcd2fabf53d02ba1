package dev.frontrun.internal.jdbc;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Proxy behind {@code Statement}, {@code PreparedStatement} and {@code CallableStatement}.
 * Inside an exploration it captures bound parameters and turns every execution into a
 * scheduling point (through its connection's {@link StatementStep}); outside one it only delegates.
 */
final class StatementHandler implements InvocationHandler {

    private final ConnectionHandler connection;
    private final Object target;
    private final String preparedSql;
    private final boolean wantsGeneratedKeys;
    private final List<Object> parameters = new ArrayList<>();
    private final List<List<Object>> batchParameters = new ArrayList<>();
    private final List<String> batchSql = new ArrayList<>();
    private StatementAnalysis lastAnalysis;

    StatementHandler(ConnectionHandler connection, Object target, String preparedSql, boolean wantsGeneratedKeys) {
        this.connection = connection;
        this.target = target;
        this.preparedSql = preparedSql;
        this.wantsGeneratedKeys = wantsGeneratedKeys;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        String name = method.getName();
        switch (name) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "Frontrun[" + target + "]";
            case "getConnection":
                return connection.proxy();
            default:
                break;
        }
        if (!SchedulingPoints.active()) {
            Optional<ExecutionContext> setup = SchedulingPoints.RepeatableRandom.setupOrInvariant();
            return setup.isEmpty() ? Interfaces.invoke(target, method, args) : inSetup(setup.get(), name, method, args);
        }
        if (recordsParameters(name, args)) {
            return Interfaces.invoke(target, method, args);
        }
        switch (name) {
            case "addBatch" -> {
                if (args == null || args.length == 0) {
                    batchParameters.add(new ArrayList<>(parameters));
                } else {
                    batchSql.add((String) args[0]);
                }
            }
            case "clearBatch" -> {
                batchParameters.clear();
                batchSql.clear();
            }
            case "execute", "executeQuery", "executeUpdate", "executeLargeUpdate" -> {
                String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql;
                List<Object> bound = sql == preparedSql ? parameters : List.of();
                return connection
                        .statements()
                        .run(
                                sql,
                                bound,
                                (Statement) target,
                                () -> Interfaces.invoke(target, method, args),
                                analysis -> lastAnalysis = analysis);
            }
            case "executeBatch", "executeLargeBatch" -> {
                return runBatch(method, args);
            }
            case "getGeneratedKeys" -> {
                Object keys = Interfaces.invoke(target, method, args);
                return lastAnalysis == null || !wantsGeneratedKeys
                        ? keys
                        : connection.captureKeys((ResultSet) keys, lastAnalysis);
            }
            default -> {
                // fall through to delegation
            }
        }
        return Interfaces.invoke(target, method, args);
    }

    /**
     * A statement of the setup (or the invariant), on the exploring thread. No scheduling point, but the keys the
     * database generates for its INSERTs and that it reads back ({@code RETURNING}, {@code getGeneratedKeys}) get
     * aliases of their own ({@code @setup.1}), as the explored threads' do. A random key (a uuid default) is another
     * value in every execution, and the explored threads' statements on that row must touch the same resource in
     * every execution of a schedule, or the exploration could not rely on executions repeating.
     */
    private Object inSetup(ExecutionContext execution, String name, Method method, Object[] args) throws Throwable {
        if (recordsParameters(name, args)) {
            return Interfaces.invoke(target, method, args);
        }
        switch (name) {
            case "execute", "executeQuery", "executeUpdate", "executeLargeUpdate" -> {
                String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql;
                lastAnalysis = sql != null && (wantsGeneratedKeys || mentionsReturning(sql))
                        ? connection.analyzeInSetup(execution, sql, sql == preparedSql ? parameters : List.of())
                        : null;
                Object result = Interfaces.invoke(target, method, args);
                return result instanceof ResultSet rows && lastAnalysis != null
                        ? connection.captureKeys(rows, lastAnalysis, execution)
                        : result;
            }
            case "getGeneratedKeys" -> {
                Object keys = Interfaces.invoke(target, method, args);
                return lastAnalysis == null || !wantsGeneratedKeys
                        ? keys
                        : connection.captureKeys((ResultSet) keys, lastAnalysis, execution);
            }
            default -> {
                // delegated
            }
        }
        return Interfaces.invoke(target, method, args);
    }

    /** Whether a statement may hand back the keys it generated in its own rows ({@code INSERT … RETURNING}). */
    private static boolean mentionsReturning(String sql) {
        return sql.toLowerCase(Locale.ROOT).contains("returning");
    }

    private Object runBatch(Method method, Object[] args) throws Throwable {
        List<String> sqls = new ArrayList<>(batchSql);
        List<List<Object>> params = new ArrayList<>();
        if (preparedSql != null) {
            for (List<Object> p : batchParameters) {
                sqls.add(preparedSql);
                params.add(p);
            }
        }
        while (params.size() < sqls.size()) {
            params.add(0, List.of());
        }
        batchParameters.clear();
        batchSql.clear();
        return connection
                .statements()
                .runBatch(
                        sqls,
                        params,
                        (Statement) target,
                        () -> Interfaces.invoke(target, method, args),
                        analysis -> lastAnalysis = analysis);
    }

    /** Records what a parameter setter or {@code clearParameters} does to the bound values; whether it was one. */
    private boolean recordsParameters(String name, Object[] args) {
        if (name.startsWith("set")
                && args != null
                && args.length >= 2
                && args[0] instanceof Integer index
                && preparedSql != null) {
            bind(index, name.equals("setNull") ? null : args[1]);
            return true;
        }
        if (name.equals("clearParameters")) {
            parameters.clear();
            return true;
        }
        return false;
    }

    private void bind(int index, Object value) {
        while (parameters.size() < index) {
            parameters.add(null);
        }
        parameters.set(index - 1, value);
    }
}

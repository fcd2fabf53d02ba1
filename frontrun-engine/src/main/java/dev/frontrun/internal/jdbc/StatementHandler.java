package dev.frontrun.internal.jdbc;

import dev.frontrun.spi.SchedulingPoints;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Proxy behind {@code Statement}, {@code PreparedStatement} and {@code CallableStatement}:
 * inside an exploration it captures bound parameters and turns every execution into a
 * scheduling point (through its {@link ConnectionHandler}); outside one it only delegates.
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
            return Interfaces.invoke(target, method, args);
        }
        if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index
                && preparedSql != null) {
            bind(index, name.equals("setNull") ? null : args[1]);
            return Interfaces.invoke(target, method, args);
        }
        switch (name) {
            case "clearParameters" -> parameters.clear();
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
                return connection.runStatement(sql, bound, (java.sql.Statement) target, () -> Interfaces.invoke(target, method, args),
                        analysis -> lastAnalysis = analysis);
            }
            case "executeBatch", "executeLargeBatch" -> {
                return runBatch(method, args);
            }
            case "getGeneratedKeys" -> {
                Object keys = Interfaces.invoke(target, method, args);
                return lastAnalysis == null || !wantsGeneratedKeys ? keys
                        : connection.captureKeys((ResultSet) keys, lastAnalysis);
            }
            default -> {
                // fall through to delegation
            }
        }
        return Interfaces.invoke(target, method, args);
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
        return connection.runBatch(sqls, params, (java.sql.Statement) target, () -> Interfaces.invoke(target, method, args),
                analysis -> lastAnalysis = analysis);
    }

    private void bind(int index, Object value) {
        while (parameters.size() < index) {
            parameters.add(null);
        }
        parameters.set(index - 1, value);
    }
}

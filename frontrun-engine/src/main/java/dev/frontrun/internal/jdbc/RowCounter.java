package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.SqlStep;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;

/**
 * Result-set proxy of a locking read ({@code SELECT … FOR UPDATE}): counts the rows the client
 * reads into the step's outcome, because those are the rows the statement locked.
 */
final class RowCounter implements InvocationHandler {

    private final ResultSet target;
    private final SqlStep step;
    private int rows;

    RowCounter(ResultSet target, SqlStep step) {
        this.target = target;
        this.step = step;
        step.complete(step.outcome().withRowsReturned(0));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        Object result = Interfaces.invoke(target, method, args);
        if (method.getName().equals("next") && Boolean.TRUE.equals(result)) {
            step.complete(step.outcome().withRowsReturned(++rows));
        }
        return result;
    }
}

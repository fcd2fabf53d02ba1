package dev.frontrun.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.util.List;

/** Result-set proxy that binds each generated key, as the application reads rows, to its reserved alias. */
final class GeneratedKeyCapture implements InvocationHandler {

    private final ResultSet target;
    private final String table;
    private final List<String> aliases;
    private final KeyAliases registry;
    private int row;

    GeneratedKeyCapture(ResultSet target, String table, List<String> aliases, KeyAliases registry) {
        this.target = target;
        this.table = table;
        this.aliases = aliases;
        this.registry = registry;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        Object result = Interfaces.invoke(target, method, args);
        if (method.getName().equals("next") && Boolean.TRUE.equals(result) && row < aliases.size()) {
            registry.bind(table, aliases.get(row++), target.getObject(1));
        }
        return result;
    }
}

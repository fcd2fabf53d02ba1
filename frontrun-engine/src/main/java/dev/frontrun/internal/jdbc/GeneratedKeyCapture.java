package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.bind.GeneratedKey;
import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import dev.frontrun.internal.sql.schema.KeyColumn;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Result-set proxy over generated keys ({@code getGeneratedKeys()} or {@code RETURNING}). As the
 * application reads each row, the concrete key is recorded under the alias its INSERT was
 * announced with, so later statements on that row get the same resource id in every interleaving.
 */
final class GeneratedKeyCapture implements InvocationHandler {

    private final ResultSet target;
    private final List<GeneratedKey> keys;
    private final GeneratedKeyAliases registry;
    private int row;

    GeneratedKeyCapture(ResultSet target, List<GeneratedKey> keys, GeneratedKeyAliases registry) {
        this.target = target;
        this.keys = keys;
        this.registry = registry;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        Object result = Interfaces.invoke(target, method, args);
        if (method.getName().equals("next") && Boolean.TRUE.equals(result) && row < keys.size()) {
            GeneratedKey key = keys.get(row++);
            registry.record(key, values(key));
        }
        return result;
    }

    /** The key columns of the current row, by name, or the first column for a single-column key not named in the result. */
    private List<Object> values(GeneratedKey key) throws SQLException {
        List<Object> values = new ArrayList<>();
        for (KeyColumn column : key.keyColumns()) {
            try {
                values.add(target.getObject(column.name()));
            } catch (SQLException notInResult) {
                if (key.keyColumns().size() != 1) {
                    throw notInResult;
                }
                values.add(target.getObject(1));
            }
        }
        return values;
    }
}

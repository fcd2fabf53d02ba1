package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * What one wrapped data source knows per physical connection. The isolation level a connection had
 * when first seen in an exploration (a pool's or the server's configured default, set behind the
 * proxy's back). Asked once per physical connection, remembered while the connection lives.
 */
final class ConnectionDefaults {

    private final Map<Object, Optional<Isolation>> initialIsolation = new WeakHashMap<>();

    /**
     * The level {@code physical} came with, asking {@code connection} the first time; empty when it is
     * PostgreSQL's default (READ COMMITTED), unknown, or cannot be asked now (an aborted transaction).
     */
    synchronized Optional<Isolation> initialIsolation(Object physical, Connection connection) {
        Optional<Isolation> known = initialIsolation.get(physical);
        if (known != null) {
            return known;
        }
        Isolation level;
        try {
            level = JdbcIsolation.of(connection.getTransactionIsolation());
        } catch (SQLException e) {
            return Optional.empty(); // the classifier falls back to the default; ask again next time
        }
        Optional<Isolation> answer = level == Isolation.READ_COMMITTED ? Optional.empty() : Optional.ofNullable(level);
        initialIsolation.put(physical, answer);
        return answer;
    }
}

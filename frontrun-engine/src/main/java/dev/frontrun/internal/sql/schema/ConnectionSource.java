package dev.frontrun.internal.sql.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Lends {@link JdbcTableCatalog} a connection for a metadata lookup. Either a fresh connection from a
 * {@link DataSource} (closed afterwards; the usual choice for the JDBC proxy, which wraps the real
 * data source) or a borrowed one (left open; its transaction must not be in an aborted state).
 */
public interface ConnectionSource {

    Connection acquire() throws SQLException;

    void release(Connection connection) throws SQLException;

    static ConnectionSource of(DataSource dataSource) {
        return new ConnectionSource() {
            @Override
            public Connection acquire() throws SQLException {
                return dataSource.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                connection.close();
            }
        };
    }

    static ConnectionSource borrowing(Supplier<Connection> connection) {
        return new ConnectionSource() {
            @Override
            public Connection acquire() {
                return connection.get();
            }

            @Override
            public void release(Connection c) {}
        };
    }
}

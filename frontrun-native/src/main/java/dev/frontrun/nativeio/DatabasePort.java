package dev.frontrun.nativeio;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The TCP port a PostgreSQL data source's server listens on, asked of the server itself. */
public final class DatabasePort {

    private DatabasePort() {}

    /**
     * @throws IllegalStateException when the connection is a Unix-domain socket: the native layer reads
     *                               (and tells apart from other services) TCP connections to the database only
     */
    public static int of(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select inet_server_port()")) {
            rs.next();
            int port = rs.getInt(1);
            if (rs.wasNull()) {
                throw new IllegalStateException(
                        "the database connection is a Unix-domain socket; Frontrun's native"
                                + " layer reads TCP connections only: connect over TCP (localhost), or set frontrun.native=off");
            }
            return port;
        }
    }
}

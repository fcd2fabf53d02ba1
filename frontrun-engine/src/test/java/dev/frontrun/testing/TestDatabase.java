package dev.frontrun.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/** A database of one test class on the shared test server; see {@link TestPostgres}. */
public record TestDatabase(String jdbcUrl, String user, String password, String name) {

    /** A plain, unpooled driver {@link DataSource} for this database. */
    public DataSource dataSource() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(jdbcUrl);
        ds.setUser(user);
        ds.setPassword(password);
        return ds;
    }

    public Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        return DriverManager.getConnection(jdbcUrl, props);
    }

    /** Runs a script of semicolon-separated statements in autocommit mode. */
    public void execute(String... statements) {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("test setup SQL failed: " + e.getMessage(), e);
        }
    }

    /** The first column of the first row of {@code sql}, as an int: a value for an invariant to check. */
    public int queryInt(String sql) {
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new IllegalStateException("no row: " + sql);
            }
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("test query failed: " + e.getMessage(), e);
        }
    }
}

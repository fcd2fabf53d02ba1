package dev.frontrun.spring.recipes;

import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * What {@code @ServiceConnection} does, without Docker: a {@link JdbcConnectionDetails} bean, from
 * which Boot builds the {@code DataSource} (it wins over {@code spring.datasource.url}, here set to
 * a server that does not exist), and which Frontrun wraps like any other. {@link
 * TestcontainersRecipeTest} is the same with a real container, where Docker runs.
 */
@Import(ConnectionDetailsRecipeTest.BroughtDatabase.class)
@TestPropertySource(properties = "spring.datasource.url=jdbc:postgresql://127.0.0.1:1/not-this-one")
class ConnectionDetailsRecipeTest extends DatabaseRecipeContract {

    private static final class Server {
        static final TestDatabase DATABASE = TestPostgres.freshDatabase(ConnectionDetailsRecipeTest.class);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class BroughtDatabase {
        @Bean
        JdbcConnectionDetails broughtDatabase() {
            return new JdbcConnectionDetails() {
                @Override
                public String getUsername() {
                    return Server.DATABASE.user();
                }

                @Override
                public String getPassword() {
                    return Server.DATABASE.password();
                }

                @Override
                public String getJdbcUrl() {
                    return Server.DATABASE.jdbcUrl();
                }
            };
        }
    }

    @Override
    Connection connectToTheBroughtDatabase() throws SQLException {
        return Server.DATABASE.connect();
    }
}

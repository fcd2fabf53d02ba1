package dev.frontrun.spring.recipes;

import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The README's "external server" recipe: {@code spring.datasource.url}, {@code username} and
 * {@code password} name a PostgreSQL that is already running. Here that server is the test JVM's
 * shared one ({@link TestPostgres}: an embedded PostgreSQL, or {@code FRONTRUN_TEST_JDBC_URL}'s);
 * the properties are dynamic only because its port is.
 */
class ExternalServerRecipeTest extends DatabaseRecipeContract {

    private static final class Server {
        static final TestDatabase DATABASE = TestPostgres.freshDatabase(ExternalServerRecipeTest.class);
    }

    @DynamicPropertySource
    static void externalServer(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> Server.DATABASE.jdbcUrl());
        registry.add("spring.datasource.username", () -> Server.DATABASE.user());
        registry.add("spring.datasource.password", () -> Server.DATABASE.password());
    }

    @Override
    Connection connectToTheBroughtDatabase() throws SQLException {
        return Server.DATABASE.connect();
    }
}

package dev.frontrun.spring.recipes;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The README's Testcontainers recipe, as an application would write it: a {@code @ServiceConnection}
 * {@link PostgreSQLContainer} bean in a {@code @TestConfiguration}; Boot builds the {@code DataSource}
 * from the container's connection details and Frontrun wraps it. Runs where Docker runs, and is
 * skipped (by Testcontainers) where there is no Docker daemon; {@link ConnectionDetailsRecipeTest}
 * checks the same wiring without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
@Import(TestcontainersRecipeTest.Containers.class)
class TestcontainersRecipeTest extends DatabaseRecipeContract {

    @TestConfiguration(proxyBeanMethods = false)
    static class Containers {
        @Bean
        @ServiceConnection
        PostgreSQLContainer postgres() {
            return new PostgreSQLContainer(DockerImageName.parse("postgres:17-alpine"));
        }
    }

    @Autowired
    private PostgreSQLContainer postgres;

    @Override
    Connection connectToTheBroughtDatabase() throws SQLException {
        return DriverManager.getConnection(postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());
    }
}

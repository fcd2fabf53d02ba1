package dev.frontrun.demo.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spring.FrontrunTest;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A test that brings its own database the way Testcontainers' {@code @ServiceConnection} does — a
 * {@link JdbcConnectionDetails} bean, no {@code spring.datasource.url} — gets that database: the
 * standalone embedded PostgreSQL is not started, Boot builds the {@code DataSource} from the
 * details, and Frontrun wraps it.
 */
@SpringBootTest(properties = {"spring.main.banner-mode=off", "logging.level.root=WARN"})
@FrontrunTest
@Import(BroughtDatabaseTest.BroughtDatabase.class)
class BroughtDatabaseTest {

    private static final class Server {
        static final TestDatabase DATABASE = TestPostgres.freshDatabase(BroughtDatabaseTest.class);
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

    @Autowired
    ApplicationContext context;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theBroughtDatabaseIsUsedAndNoEmbeddedOneIsStarted() {
        assertThat(context.getBeanNamesForType(EmbeddedPostgres.class)).isEmpty();
        assertThat(FrontrunDataSource.isWrapped(dataSource)).isTrue();
        assertThat(jdbc.queryForObject("SELECT current_database()", String.class))
                .isEqualTo(Server.DATABASE.name());
        assertThat(Server.DATABASE.queryInt("SELECT count(*) FROM vets"))
                .as("the schema and data were applied there")
                .isPositive();
    }
}

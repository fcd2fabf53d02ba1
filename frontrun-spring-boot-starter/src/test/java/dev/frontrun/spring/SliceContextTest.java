package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A context that chooses its auto-configurations, as test slices ({@code @JdbcTest},
 * {@code @DataJpaTest}) do: {@code @FrontrunTest} brings Frontrun's along, so the slice gets the
 * wrapped DataSource and the {@link RaceExplorer} without listing them.
 */
@SpringBootTest(
        classes = SliceContextTest.NoAutoConfiguration.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ImportAutoConfiguration(DataSourceAutoConfiguration.class)
@FrontrunTest
class SliceContextTest {

    @Configuration(proxyBeanMethods = false)
    static class NoAutoConfiguration {}

    private static final class Database {
        static final TestDatabase INSTANCE = TestPostgres.freshDatabase(SliceContextTest.class);
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> Database.INSTANCE.jdbcUrl());
        registry.add("spring.datasource.username", () -> Database.INSTANCE.user());
        registry.add("spring.datasource.password", () -> Database.INSTANCE.password());
    }

    @Autowired
    DataSource dataSource;

    @Autowired(required = false)
    RaceExplorer races;

    @Test
    void frontrunTestImportsTheAutoConfigurationIntoContextsWithoutEnableAutoConfiguration() {
        assertThat(races).isNotNull();
        assertThat(FrontrunDataSource.isWrapped(dataSource)).isTrue();
    }
}

package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.frontrun.Result;
import dev.frontrun.Strategy;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * The auto-configuration in small JDBC-only contexts (cheap, not cached): off unless
 * {@code frontrun.enabled=true}; on, it wraps the pool without losing it, hooks Boot's
 * transaction manager, and its properties reach explorations.
 */
class FrontrunAutoConfigurationTest {

    private static TestDatabase db;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    TransactionManagerCustomizationAutoConfiguration.class,
                    JdbcTemplateAutoConfiguration.class,
                    FrontrunAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + db.jdbcUrl(),
                    "spring.datasource.username=" + db.user(),
                    "spring.datasource.password=" + db.password());

    @BeforeAll
    static void database() {
        db = TestPostgres.freshDatabase(FrontrunAutoConfigurationTest.class);
        db.execute("CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL)", "INSERT INTO t VALUES (1, 0)");
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(db);
    }

    @Test
    void offWithoutFrontrunEnabled() {
        for (ApplicationContextRunner off :
                new ApplicationContextRunner[] {runner, runner.withPropertyValues("frontrun.enabled=false")}) {
            off.run(context -> {
                assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(RaceExplorer.class)
                        .doesNotHaveBean(FrontrunProperties.class)
                        .doesNotHaveBean(FrontrunTransactionListener.class);
                assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
                assertThat(context.getBean(DataSourceTransactionManager.class).getTransactionExecutionListeners())
                        .isEmpty();
            });
        }
    }

    @Test
    void onItWrapsThePoolWhichStillUnwrapsAndClosesWithTheContext() {
        HikariDataSource[] pool = new HikariDataSource[1];
        runner.withPropertyValues("frontrun.enabled=true").run(context -> {
            assertThat(context).hasSingleBean(RaceExplorer.class);
            DataSource dataSource = context.getBean(DataSource.class);
            assertThat(FrontrunDataSource.isWrapped(dataSource)).isTrue();
            assertThat(dataSource.isWrapperFor(HikariDataSource.class)).isTrue();
            pool[0] = dataSource.unwrap(HikariDataSource.class);
            assertThat(pool[0]).isSameAs(FrontrunDataSource.unwrapped(dataSource));
            try (Connection c = dataSource.getConnection()) {
                assertThat(c.isWrapperFor(PGConnection.class)).isTrue();
                assertThat(c.unwrap(PGConnection.class).getBackendPID()).isPositive();
            }
            assertThat(context.getBean(DataSourceTransactionManager.class).getDataSource())
                    .isSameAs(dataSource);
            assertThat(context.getBean(DataSourceTransactionManager.class).getTransactionExecutionListeners())
                    .hasExactlyElementsOfTypes(FrontrunTransactionListener.class);
        });
        assertThat(pool[0].isClosed())
                .as("the pool is closed through the proxy on context close")
                .isTrue();
    }

    /** Properties that are not set leave the engine's defaults, which are the documented ones. */
    @Test
    void propertiesHaveTheDocumentedDefaults() {
        runner.withPropertyValues("frontrun.enabled=true").run(context -> {
            EffectiveOptions p = EffectiveOptions.of(
                    context.getBean(RaceExplorer.class).explore(), context.getBean(FrontrunProperties.class));
            assertThat(p.maxExecutions()).isEqualTo(10_000);
            assertThat(p.preemptionBound()).isNull();
            assertThat(p.executionTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(p.totalTimeout()).isEqualTo(Duration.ofMinutes(10));
            assertThat(p.reproduceCount()).isEqualTo(10);
            assertThat(p.reportDirectory()).isEqualTo(Path.of("target/frontrun-reports"));
            assertThat(p.strategy()).isEqualTo(FrontrunProperties.StrategyName.DPOR);
            assertThat(p.randomSeed()).isZero();
            assertThat(p.randomAttempts()).isEqualTo(100);
        });
    }

    @Test
    void propertiesBindFromTheEnvironment() {
        runner.withPropertyValues(
                        "frontrun.enabled=true",
                        "frontrun.max-executions=7",
                        "frontrun.preemption-bound=2",
                        "frontrun.execution-timeout=5s",
                        "frontrun.total-timeout=1m",
                        "frontrun.reproduce-count=0",
                        "frontrun.report-directory=build/reports",
                        "frontrun.strategy=random",
                        "frontrun.random-seed=42",
                        "frontrun.random-attempts=5",
                        "frontrun.report-passing=true",
                        "frontrun.shard=1/3",
                        "frontrun.max-steps-per-execution=1000",
                        "frontrun.instrument.enabled=false",
                        "frontrun.instrument.packages=com.example.shop",
                        "frontrun.instrument.shared-memory=false")
                .run(context -> {
                    FrontrunProperties p = context.getBean(FrontrunProperties.class);
                    assertThat(p.getMaxExecutions()).isEqualTo(7);
                    assertThat(p.getPreemptionBound()).isEqualTo(2);
                    assertThat(p.getExecutionTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(p.getTotalTimeout()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(p.getReproduceCount()).isZero();
                    assertThat(p.getReportDirectory()).isEqualTo(Path.of("build/reports"));
                    assertThat(p.getStrategy()).isEqualTo(FrontrunProperties.StrategyName.RANDOM);
                    assertThat(p.getRandomSeed()).isEqualTo(42);
                    assertThat(p.getRandomAttempts()).isEqualTo(5);
                    assertThat(p.getReportPassing()).isTrue();
                    assertThat(p.getShard()).isEqualTo("1/3");
                    assertThat(p.getMaxStepsPerExecution()).isEqualTo(1000);
                    assertThat(p.getInstrument())
                            .isEqualTo(new FrontrunProperties.Instrument(false, List.of("com.example.shop"), false));
                });
    }

    @Test
    void anInvalidPropertyFailsTheContextAtStartup() {
        runner.withPropertyValues("frontrun.enabled=true", "frontrun.max-executions=0")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("frontrun.max-executions must be at least 1"));
    }

    /**
     * Two threads each bumping one row four times have 70 distinct interleavings at any SQL
     * precision, so a budget of 7 runs out at exactly 7.
     */
    /** All requests share the application context: executions on parallel workers would share it too. */
    @Test
    void parallelExplorationIsRefusedWithTheReason() {
        runner.withPropertyValues("frontrun.enabled=true").run(context -> {
            RaceExplorer races = context.getBean(RaceExplorer.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            ThrowingRunnable bump = () -> jdbc.update("UPDATE t SET v = v + 1 WHERE id = 1");

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> races.explore()
                            .parallelism(2)
                            .thread("a", bump)
                            .thread("b", bump)
                            .run())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("parallelism(2) is refused")
                    .hasMessageContaining("share the one application context")
                    .hasMessageContaining("parallelism(1)");
            assertThat(jdbc.queryForObject("SELECT v FROM t WHERE id = 1", Integer.class))
                    .isZero();
        });
    }

    @Test
    void maxExecutionsFromPropertiesReachesExplorations() {
        runner.withPropertyValues("frontrun.enabled=true", "frontrun.max-executions=7")
                .run(context -> {
                    RaceExplorer races = context.getBean(RaceExplorer.class);
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    ThrowingRunnable fourBumps = () -> {
                        for (int i = 0; i < 4; i++) {
                            jdbc.update("UPDATE t SET v = v + 1 WHERE id = 1");
                        }
                    };

                    Result result = races.explore()
                            .thread("a", fourBumps)
                            .thread("b", fourBumps)
                            .invariant(() -> jdbc.queryForObject("SELECT v FROM t WHERE id = 1", Integer.class) == 8)
                            .run();

                    assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.INCONCLUSIVE);
                    assertThat(result.executions()).isEqualTo(7);
                    assertThat(result.inconclusiveBecause())
                            .hasValueSatisfying(why -> assertThat(why).contains("7 executions"));
                });
    }

    @Test
    void theStrategyFromPropertiesReachesExplorationsAndCodeOverridesIt() {
        runner.withPropertyValues(
                        "frontrun.enabled=true",
                        "frontrun.strategy=random",
                        "frontrun.random-seed=42",
                        "frontrun.random-attempts=3")
                .run(context -> {
                    RaceExplorer races = context.getBean(RaceExplorer.class);
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    ThrowingRunnable bump = () -> jdbc.update("UPDATE t SET v = v + 1 WHERE id = 1");

                    Result sampled =
                            races.explore().thread("a", bump).thread("b", bump).run();
                    Result proven = races.explore()
                            .thread("a", bump)
                            .thread("b", bump)
                            .strategy(Strategy.dpor())
                            .run();

                    assertThat(sampled.strategy()).isEqualTo(Strategy.random(42, 3));
                    assertThat(sampled.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
                    assertThat(proven.verdict()).as(proven.explanation()).isEqualTo(Verdict.HOLDS);
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class AlreadyWrapped {
        static DataSource created;

        @Bean
        DataSource dataSource() {
            PGSimpleDataSource raw = new PGSimpleDataSource();
            raw.setURL(db.jdbcUrl());
            created = FrontrunDataSource.wrap(raw);
            return created;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TransactionAwareOnTop {
        @Bean
        DataSource targetDataSource() {
            return new PGSimpleDataSource();
        }

        @Bean
        @Primary
        TransactionAwareDataSourceProxy dataSource(DataSource targetDataSource) {
            return new TransactionAwareDataSourceProxy(targetDataSource);
        }
    }

    @Test
    void aDataSourceTheApplicationWrappedItselfIsNotWrappedAgain() {
        runner.withPropertyValues("frontrun.enabled=true")
                .withUserConfiguration(AlreadyWrapped.class)
                .run(context -> {
                    DataSource bean = context.getBean(DataSource.class);
                    assertThat(bean).isSameAs(AlreadyWrapped.created);
                    assertThat(FrontrunDataSource.isWrapped(FrontrunDataSource.unwrapped(bean)))
                            .isFalse();
                });
    }

    @Test
    void aSpringProxyOverAWrappedDataSourceBeanIsNotWrappedAgain() {
        runner.withPropertyValues("frontrun.enabled=true")
                .withUserConfiguration(TransactionAwareOnTop.class)
                .run(context -> {
                    assertThat(FrontrunDataSource.isWrapped(context.getBean("targetDataSource", DataSource.class)))
                            .isTrue();
                    assertThat(context.getBean("dataSource")).isInstanceOf(TransactionAwareDataSourceProxy.class);
                });
    }
}

package dev.frontrun.spring.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfigMXBean;
import com.zaxxer.hikari.HikariDataSource;
import dev.frontrun.Result;
import dev.frontrun.hibernate.EntityTables;
import dev.frontrun.hibernate.FrontrunStatementInspector;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spring.FrontrunTransactionListener;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.DataSourceUnwrapper;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * What {@code @FrontrunTest} puts into a real Boot application context: the wrapped pool (still
 * reachable by unwrap), the transaction listener on Boot's JPA transaction manager, the Hibernate
 * inspector and metamodel, and worker threads that start clean.
 */
class ContextIntegrationTest extends RaceAppTestSupport {

    @Autowired
    DataSource dataSource;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    @Autowired
    EntityTables entityTables;

    @Test
    void theDataSourceBeanIsTheProxyAndStillUnwrapsToHikariAndTheDriver() throws Exception {
        assertThat(FrontrunDataSource.isWrapped(dataSource)).isTrue();
        assertThat(dataSource.isWrapperFor(HikariDataSource.class)).isTrue();
        HikariDataSource hikari = dataSource.unwrap(HikariDataSource.class);
        assertThat(hikari).isSameAs(FrontrunDataSource.unwrapped(dataSource));
        assertThat(hikari.getJdbcUrl()).isEqualTo(database().jdbcUrl());
        assertThat(DataSourceUnwrapper.unwrap(dataSource, HikariConfigMXBean.class, HikariDataSource.class))
                .as("Boot's unwrapper, used by its pool metrics and health")
                .isSameAs(hikari);
        try (Connection c = dataSource.getConnection()) {
            assertThat(c.unwrap(PGConnection.class).getBackendPID()).isPositive();
        }
    }

    @Test
    void bootAppliesTheTransactionListenerToItsJpaTransactionManager() {
        assertThat(transactionManager).isInstanceOf(JpaTransactionManager.class);
        assertThat(((JpaTransactionManager) transactionManager).getTransactionExecutionListeners())
                .hasAtLeastOneElementOfType(FrontrunTransactionListener.class);
    }

    @Test
    void hibernateGetsTheStatementInspectorAndFrontrunLearnsTheMetamodel() {
        assertThat(entityManagerFactory.getProperties().get("hibernate.session_factory.statement_inspector"))
                .isInstanceOf(FrontrunStatementInspector.class);
        assertThat(entityTables.entityOf("counters")).isEqualTo("Counter");
        assertThat(entityTables.entityOf("versioned_counters")).isEqualTo("VersionedCounter");
    }

    /**
     * Worker threads are new threads that inherit nothing from the test thread's inheritable
     * thread-locals (a security context, an MDC), carry the names the test gave them, and keep
     * the test's class loader.
     */
    @Test
    void workerThreadsDoNotInheritTheTestsThreadLocals() {
        InheritableThreadLocal<String> testOnly = new InheritableThreadLocal<>();
        testOnly.set("set on the test thread");
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        ClassLoader testLoader = Thread.currentThread().getContextClassLoader();
        try {
            Result result = races.explore()
                    .thread("worker-a", () -> {
                        seen.add(Thread.currentThread().getName() + "=" + testOnly.get()
                                + (Thread.currentThread().getContextClassLoader() == testLoader
                                        ? ""
                                        : " (other loader)"));
                        postOk("/counters/2/increment-atomic");
                    })
                    .invariant(() -> counter(2) == 1)
                    .run();

            assertThat(result.propertyHolds()).as(result.explanation()).isTrue();
            assertThat(seen).isNotEmpty().allMatch(s -> s.equals("worker-a=null"));
        } finally {
            testOnly.remove();
        }
    }
}

package dev.frontrun.spring.hints;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.jdbc.SchemaHints;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.hints.gadgets.Gadget;
import dev.frontrun.spring.hints.widgets.Widget;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Two applications alive in one JVM (as two cached test contexts are) that map the same table to
 * different entities: each keeps its own naming, in its data source's schema hints and in the
 * entity tags of its traces.
 */
class SchemaHintsPerContextTest {

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EntityScan(basePackageClasses = Gadget.class)
    static class GadgetApp {}

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EntityScan(basePackageClasses = Widget.class)
    static class WidgetApp {}

    private static TestDatabase db;

    @BeforeAll
    static void database() {
        db = TestPostgres.freshDatabase(SchemaHintsPerContextTest.class);
        db.execute(
                "CREATE TABLE things (id bigint PRIMARY KEY, label text NOT NULL)",
                "INSERT INTO things VALUES (1, 'one')");
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(db);
    }

    @Test
    void eachContextNamesTheTableAfterItsOwnEntity(@TempDir Path reports) {
        try (ConfigurableApplicationContext gadgets = start(GadgetApp.class, reports);
                ConfigurableApplicationContext widgets = start(WidgetApp.class, reports)) {

            assertThat(entityOfThings(gadgets)).isEqualTo("Gadget");
            assertThat(entityOfThings(widgets)).isEqualTo("Widget");
            assertThat(tagsOfAFind(gadgets, Gadget.class))
                    .isNotEmpty()
                    .allSatisfy(l -> assertThat(l).contains("[Gadget]"));
            assertThat(tagsOfAFind(widgets, Widget.class))
                    .isNotEmpty()
                    .allSatisfy(l -> assertThat(l).contains("[Widget]"));
        }
    }

    /** Arguments, not default properties: they must win over the RaceApp's application.properties on the test classpath. */
    private static ConfigurableApplicationContext start(Class<?> app, Path reports) {
        return new SpringApplicationBuilder(app)
                .web(WebApplicationType.NONE)
                .run(
                        "--spring.datasource.url=" + db.jdbcUrl(),
                        "--spring.datasource.username=" + db.user(),
                        "--spring.datasource.password=" + db.password(),
                        "--spring.sql.init.mode=never",
                        "--spring.jpa.hibernate.ddl-auto=none",
                        "--frontrun.enabled=true",
                        "--frontrun.report-directory=" + reports);
    }

    private static String entityOfThings(ConfigurableApplicationContext context) {
        SchemaHints hints = FrontrunDataSource.schemaHints(context.getBean(DataSource.class))
                .orElseThrow();
        return hints.entityOf("things").orElseThrow().name();
    }

    /** The SQL steps of a trace in which one thread finds the entity with id 1. */
    private static List<String> tagsOfAFind(ConfigurableApplicationContext context, Class<?> entity) {
        EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
        Result result = context.getBean(RaceExplorer.class)
                .explore()
                .thread("finder", () -> {
                    try (EntityManager em = factory.createEntityManager()) {
                        em.find(entity, 1L);
                    }
                })
                .invariant(() -> false, "always fails, to get a trace")
                .reproduceOnFailure(0)
                .run();
        return result.trace().stream()
                .map(TraceStep::step)
                .map(step -> step.label())
                .filter(label -> label.startsWith("select"))
                .toList();
    }
}

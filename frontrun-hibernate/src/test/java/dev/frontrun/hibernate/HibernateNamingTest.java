package dev.frontrun.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.jdbc.SchemaHints;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class HibernateNamingTest {

    @Entity
    @Table(name = "owners")
    public static class Owner {
        @Id
        Long id;

        String city;
    }

    private static SessionFactory sessions;
    private static DataSource dataSource;
    private static final SchemaHints HINTS = new SchemaHints();
    private static final EntityTables TABLES = new EntityTables(HINTS);

    @BeforeAll
    static void hibernate(TestDatabase db) {
        db.execute(
                "CREATE TABLE owners (id bigint PRIMARY KEY, city text)", "INSERT INTO owners VALUES (1, 'Madison')");
        dataSource = FrontrunDataSource.wrap(db.dataSource(), HINTS);
        Configuration configuration = new Configuration().addAnnotatedClass(Owner.class);
        configuration.getProperties().put("hibernate.connection.datasource", dataSource);
        configuration.setProperty("hibernate.dialect", "org.hibernate.dialect.PostgreSQLDialect");
        configuration.setStatementInspector(new FrontrunStatementInspector(TABLES));
        sessions = configuration.buildSessionFactory();
        TABLES.learn(sessions);
    }

    @AfterAll
    static void close() {
        sessions.close();
    }

    @Test
    void readsTableToEntityAndIdColumnsFromTheMetamodel() {
        assertThat(TABLES.entityOf("owners")).isEqualTo("Owner");
        assertThat(TABLES.entityOf("OWNERS")).isEqualTo("Owner");
        assertThat(TABLES.entityOf("pets")).isNull();
        assertThat(HINTS.entityOf("owners")).get().satisfies(e -> {
            assertThat(e.name()).isEqualTo("Owner");
            assertThat(e.idColumns()).containsExactly("id");
        });
    }

    /** The entities found in a statement are remembered per text, and forgotten when the mapping is learned anew. */
    @Test
    void aStatementSeenBeforeTheMappingWasLearnedFindsItsEntityAfter() {
        EntityTables tables = new EntityTables(new SchemaHints());
        String sql = "select o1_0.id,o1_0.city from owners o1_0 where o1_0.id=?";
        assertThat(tables.entitiesIn(sql)).isEmpty();

        tables.learn(sessions);

        assertThat(tables.entitiesIn(sql)).isEqualTo("Owner");
        assertThat(tables.entitiesIn(sql)).isEqualTo("Owner");
        assertThat(tables.entitiesIn("update owners set city=? where id=?")).isEqualTo("Owner");
    }

    @Test
    void tracesNameTheEntityOfEveryHibernateStatement() {
        Result result = Frontrun.explore(Object::new)
                .database(dataSource)
                .thread("editor", s -> sessions.inTransaction(session -> session.find(Owner.class, 1L).city = "Monona"))
                .thread("reader", s -> sessions.inTransaction(session -> session.find(Owner.class, 1L)))
                .invariant(s -> false, "always fails, to get a trace")
                .reproduceOnFailure(0)
                .run();

        assertThat(result.trace())
                .as(result.explanation())
                .extracting(TraceStep::step)
                .extracting(step -> step.label())
                .filteredOn(label -> label.startsWith("select") || label.startsWith("update"))
                .isNotEmpty()
                .allSatisfy(label -> assertThat(label).contains("[Owner]"));
    }
}

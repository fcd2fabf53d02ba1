package dev.frontrun.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.CreationTimestamp;
import org.hibernate.annotations.UpdateTimestamp;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class GeneratedColumnsTest {

    @Entity
    @Table(name = "invoices")
    public static class Invoice {
        @Id
        Long id;

        @Version
        @Column(name = "row_version")
        Integer rowVersion;

        @CreationTimestamp
        @Column(name = "created_at")
        Instant createdAt;

        @UpdateTimestamp
        @Column(name = "changed_at")
        Instant changedAt;

        Instant paidAt;
    }

    @Entity
    @Table(name = "notes")
    public static class Note {
        @Id
        Long id;

        String text;
    }

    private static SessionFactory sessions;

    @BeforeAll
    static void hibernate(TestDatabase db) {
        Configuration configuration =
                new Configuration().addAnnotatedClass(Invoice.class).addAnnotatedClass(Note.class);
        configuration.getProperties().put("hibernate.connection.datasource", db.dataSource());
        configuration.setProperty("hibernate.dialect", "org.hibernate.dialect.PostgreSQLDialect");
        sessions = configuration.buildSessionFactory();
    }

    @AfterAll
    static void close() {
        sessions.close();
    }

    @Test
    void readsTheVersionAndTheColumnsHibernateSetsToTheTime() {
        GeneratedColumns columns = new GeneratedColumns();

        columns.learn(sessions);

        assertThat(columns.versions()).isEqualTo(Map.of("invoices", new GeneratedColumns.Version("row_version", true)));
        assertThat(columns.clocks()).isEqualTo(Map.of("invoices", Set.of("created_at", "changed_at")));
    }
}

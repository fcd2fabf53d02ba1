package dev.frontrun.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.GenericGenerator;
import org.hibernate.cfg.Configuration;
import org.hibernate.id.IncrementGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hibernate's blocks of identifiers start afresh with the database: every execution's inserts get the same ids (the
 * first execution's program, so schedules replay), and after the exploration no id is handed out twice. Without the
 * hook, the second exploration below fails with a duplicate key in every interleaving. Inside executions each thread
 * takes its ids from a block of its own ({@link BlockPerThread}): with the one shared block, a thread that waited for
 * its lock ran at once with the thread that gave it back, the ids went to either, and the exploration ended
 * inconclusive (the program did not repeat itself).
 */
@ExtendWith(PostgresExtension.class)
class IdentifierBlocksTest {

    @Entity
    @Table(name = "notes")
    public static class Note {
        @Id
        @GeneratedValue
        Long id;

        String text;
    }

    @Entity
    @Table(name = "tickets")
    public static class Ticket {
        @Id
        @GeneratedValue(generator = "largest-id-plus-one")
        @GenericGenerator(name = "largest-id-plus-one", type = IncrementGenerator.class)
        Long id;

        String text;
    }

    @Test
    void everyExecutionGetsTheSameIdsAndNoneIsHandedOutTwiceAfterwards(TestDatabase db) {
        check(db, c -> {});
    }

    @Test
    void aThreadLocalOptimizerStartsAfreshOnEveryExploredThread(TestDatabase db) {
        check(db, c -> c.setProperty("hibernate.id.optimizer.pooled.preferred", "pooled-lotl"));
    }

    /** The tables and the sequence afresh, and Hibernate on them through Frontrun's proxy. */
    private record Hibernate(DataSource ds, SessionFactory sessions) implements AutoCloseable {
        static Hibernate on(TestDatabase db, Consumer<Configuration> configure) {
            db.execute(
                    "DROP TABLE IF EXISTS notes, tickets",
                    "DROP SEQUENCE IF EXISTS notes_seq",
                    "CREATE TABLE notes (id bigint PRIMARY KEY, text text)",
                    "CREATE SEQUENCE notes_seq INCREMENT BY 50",
                    "CREATE TABLE tickets (id bigint PRIMARY KEY, text text)");
            DataSource ds = FrontrunDataSource.wrap(db.dataSource());
            Configuration configuration =
                    new Configuration().addAnnotatedClass(Note.class).addAnnotatedClass(Ticket.class);
            configuration.getProperties().put("hibernate.connection.datasource", ds);
            configure.accept(configuration);
            return new Hibernate(ds, configuration.buildSessionFactory());
        }

        @Override
        public void close() {
            sessions.close();
        }
    }

    private static void check(TestDatabase db, Consumer<Configuration> configure) {
        try (Hibernate hibernate = Hibernate.on(db, configure)) {
            DataSource ds = hibernate.ds();
            SessionFactory sessions = hibernate.sessions();
            IdentifierBlocks blocks = IdentifierBlocks.of(sessions);
            sessions.inTransaction(s -> s.persist(note("before")));
            sessions.inTransaction(s -> s.persist(ticket("before")));

            for (int exploration = 1; exploration <= 2; exploration++) {
                Set<List<Long>> idsSeen = ConcurrentHashMap.newKeySet();
                Result result = Frontrun.explore(Object::new)
                        .database(ds)
                        .hook(blocks)
                        .thread("a", s -> sessions.inTransaction(session -> insert(session, "a")))
                        .thread("b", s -> sessions.inTransaction(session -> insert(session, "b")))
                        .invariant(s -> idsSeen.add(sessions.fromTransaction(session -> session.createNativeQuery(
                                                "select id from notes where text <> 'before' union all select -id from tickets"
                                                        + " where text <> 'before' order by 1",
                                                Long.class)
                                        .getResultList()))
                                || true)
                        .run();

                assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
                assertThat(result.executions()).as(result.explanation()).isGreaterThan(1);
                assertThat(idsSeen)
                        .as("exploration %d: the ids of every execution", exploration)
                        .hasSize(1);
            }
            assertThatCode(() -> sessions.inTransaction(s -> {
                        for (int i = 0; i < 120; i++) {
                            s.persist(note("after " + i));
                            s.persist(ticket("after " + i));
                        }
                    }))
                    .as("no id handed out twice after the explorations")
                    .doesNotThrowAnyException();
        }
    }

    /**
     * 30 notes: the block of 50 runs out within an execution, which then asks the sequence again; thread a also adds
     * a ticket (one thread only: the increment generator holds its monitor while it reads the largest id, which
     * Frontrun, not seeing into Hibernate's classes, could not schedule).
     */
    private static void insert(org.hibernate.Session session, String text) {
        for (int i = 0; i < 30; i++) {
            session.persist(note(text));
        }
        if (text.equals("a")) {
            session.persist(ticket(text));
        }
    }

    private static Note note(String text) {
        Note n = new Note();
        n.text = text;
        return n;
    }

    private static Ticket ticket(String text) {
        Ticket t = new Ticket();
        t.text = text;
        return t;
    }

    @Test
    void withoutItTheExecutionsTakeOtherIdsOrFail(TestDatabase db) {
        try (Hibernate hibernate = Hibernate.on(db, c -> {})) {
            DataSource ds = hibernate.ds();
            SessionFactory sessions = hibernate.sessions();
            sessions.inTransaction(s -> s.persist(note("before")));
            Set<List<Long>> idsSeen = ConcurrentHashMap.newKeySet();
            Result result = Frontrun.explore(Object::new)
                    .database(ds)
                    .thread("a", s -> sessions.inTransaction(session -> insert(session, "a")))
                    .thread("b", s -> sessions.inTransaction(session -> insert(session, "b")))
                    .invariant(s -> idsSeen.add(sessions.fromTransaction(session -> session.createNativeQuery(
                                            "select id from notes where text <> 'before' order by 1", Long.class)
                                    .getResultList()))
                            || true)
                    .reproduceOnFailure(0)
                    .run();

            assertThat(result.verdict() != Verdict.HOLDS || idsSeen.size() > 1)
                    .as("what the hook prevents: %s, ids %s", result.verdict(), idsSeen.size())
                    .isTrue();
        }
    }

    @Test
    void anIncrementGeneratorUsedBeforeItWasSeenIsRefusedNamingTheEntity(TestDatabase db) {
        try (Hibernate hibernate = Hibernate.on(db, c -> {})) {
            DataSource ds = hibernate.ds();
            SessionFactory sessions = hibernate.sessions();
            sessions.inTransaction(s -> s.persist(ticket("before")));
            IdentifierBlocks blocks = IdentifierBlocks.of(sessions);

            assertThatThrownBy(() -> Frontrun.explore(Object::new)
                            .database(ds)
                            .hook(blocks)
                            .thread("a", s -> sessions.inTransaction(session -> session.persist(ticket("a"))))
                            .thread("b", s -> sessions.inTransaction(session -> session.persist(note("b"))))
                            .run())
                    .hasMessageContaining(Ticket.class.getName())
                    .hasMessageContaining("used before Frontrun saw it");
        }
    }
}

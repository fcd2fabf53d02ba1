package dev.frontrun.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.UuidGenerator;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A UUID Hibernate generates is the same in every execution of an exploration, so the exploration covers the orders
 * of a program that repeats itself: the same executions and verdict as with a key the test fixes. Without the hook
 * every execution inserts and updates another row, and the exploration says it cannot give a verdict.
 */
@ExtendWith(PostgresExtension.class)
class RepeatableUuidsTest {

    @Entity
    @Table(name = "accounts")
    public static class Account {
        @Id
        @GeneratedValue(strategy = GenerationType.UUID)
        UUID id;

        int balance;
    }

    @Entity
    @Table(name = "v1_accounts")
    public static class V1Account {
        @Id
        @UuidGenerator(style = UuidGenerator.Style.TIME)
        UUID id;

        int balance;
    }

    @Entity
    @Table(name = "v6_accounts")
    public static class V6Account {
        @Id
        @UuidGenerator(style = UuidGenerator.Style.VERSION_6)
        UUID id;

        int balance;
    }

    @Entity
    @Table(name = "v7_accounts")
    public static class V7Account {
        @Id
        @UuidGenerator(style = UuidGenerator.Style.VERSION_7)
        UUID id;

        int balance;
    }

    @Entity
    @Table(name = "ledgers")
    public static class Ledger {
        @Id
        UUID id;

        int balance;
    }

    private record Hibernate(DataSource ds, SessionFactory sessions) implements AutoCloseable {
        static Hibernate on(TestDatabase db) {
            db.execute(
                    "DROP TABLE IF EXISTS accounts, ledgers, v1_accounts, v6_accounts, v7_accounts",
                    "CREATE TABLE accounts (id uuid PRIMARY KEY, balance int NOT NULL)",
                    "CREATE TABLE ledgers (id uuid PRIMARY KEY, balance int NOT NULL)",
                    "CREATE TABLE v1_accounts (id uuid PRIMARY KEY, balance int NOT NULL)",
                    "CREATE TABLE v6_accounts (id uuid PRIMARY KEY, balance int NOT NULL)",
                    "CREATE TABLE v7_accounts (id uuid PRIMARY KEY, balance int NOT NULL)");
            DataSource ds = FrontrunDataSource.wrap(db.dataSource());
            Configuration configuration = new Configuration()
                    .addAnnotatedClass(Account.class)
                    .addAnnotatedClass(Ledger.class)
                    .addAnnotatedClass(V1Account.class)
                    .addAnnotatedClass(V6Account.class)
                    .addAnnotatedClass(V7Account.class);
            configuration.getProperties().put("hibernate.connection.datasource", ds);
            return new Hibernate(ds, configuration.buildSessionFactory());
        }

        @Override
        public void close() {
            sessions.close();
        }
    }

    /** Two threads add 1 to the balance the setup created, each locking it, reading it and writing it back. */
    private static <K> Exploration<K> twoDeposits(
            Hibernate hibernate, Function<SessionFactory, K> setup, Class<?> entity, Set<Object> keysSeen) {
        SessionFactory sessions = hibernate.sessions();
        String table = entity.getAnnotation(Table.class).name();
        return Frontrun.explore(() -> {
                    K key = setup.apply(sessions);
                    keysSeen.add(key);
                    return key;
                })
                .database(hibernate.ds())
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .thread("a", key -> deposit(sessions, entity, key))
                .thread("b", key -> deposit(sessions, entity, key))
                .invariant(key ->
                        sessions.fromTransaction(s -> s.createNativeQuery("select balance from " + table, Integer.class)
                                        .getSingleResult())
                                == 2);
    }

    private static void deposit(SessionFactory sessions, Class<?> entity, Object key) {
        sessions.inTransaction(s -> {
            Object row = s.find(entity, key, LockModeType.PESSIMISTIC_WRITE);
            try {
                java.lang.reflect.Field balance = entity.getDeclaredField("balance");
                balance.setInt(row, balance.getInt(row) + 1);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static UUID newAccount(SessionFactory sessions) {
        Account account = new Account();
        sessions.inTransaction(s -> s.persist(account));
        return account.id;
    }

    private static final UUID FIXED = UUID.fromString("7d1c4c1e-0d3c-4d0e-9a57-2f4b51f0a0aa");

    private static UUID fixedLedger(SessionFactory sessions) {
        Ledger ledger = new Ledger();
        ledger.id = FIXED;
        sessions.inTransaction(s -> s.persist(ledger));
        return ledger.id;
    }

    @Test
    void generatedKeysRepeatSoTheExplorationIsTheSameAsWithAFixedKey(TestDatabase db) {
        try (Hibernate hibernate = Hibernate.on(db)) {
            RepeatableUuids uuids = RepeatableUuids.of(hibernate.sessions());
            Set<Object> fixedKeys = ConcurrentHashMap.newKeySet();
            Result fixed = twoDeposits(hibernate, RepeatableUuidsTest::fixedLedger, Ledger.class, fixedKeys)
                    .run();
            Set<Object> firstKeys = ConcurrentHashMap.newKeySet();
            Result generated = twoDeposits(hibernate, RepeatableUuidsTest::newAccount, Account.class, firstKeys)
                    .hook(uuids)
                    .run();
            Set<Object> secondKeys = ConcurrentHashMap.newKeySet();
            Result again = twoDeposits(hibernate, RepeatableUuidsTest::newAccount, Account.class, secondKeys)
                    .hook(uuids)
                    .run();

            assertThat(fixed.verdict()).as(fixed.explanation()).isEqualTo(Verdict.HOLDS);
            assertThat(generated.verdict()).as(generated.explanation()).isEqualTo(fixed.verdict());
            assertThat(generated.executions()).as(generated.explanation()).isEqualTo(fixed.executions());
            assertThat(again.executions()).isEqualTo(fixed.executions());
            assertThat(firstKeys).as("one key in every execution").hasSize(1);
            assertThat(secondKeys).as("one key in every execution").hasSize(1);
            assertThat(secondKeys)
                    .as("another exploration (a replay), the same keys")
                    .isEqualTo(firstKeys);
            UUID outside = newAccount(hibernate.sessions());
            assertThat(outside)
                    .as("outside an exploration, Hibernate's own random UUIDs")
                    .isNotIn(firstKeys, secondKeys)
                    .isNotEqualTo(newAccount(hibernate.sessions()));
            assertThat(outside.version()).isEqualTo(4);
        }
    }

    @Test
    void withoutItTheExplorationSaysTheProgramDidNotRepeatItself(TestDatabase db) {
        try (Hibernate hibernate = Hibernate.on(db)) {
            Set<Object> keys = ConcurrentHashMap.newKeySet();
            Result result = twoDeposits(hibernate, RepeatableUuidsTest::newAccount, Account.class, keys)
                    .run();

            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(result.explanation()).contains("did not repeat itself").contains("thread 'a'");
            assertThat(keys).as("a key per execution").hasSizeGreaterThan(1);
        }
    }

    /** Keys made on the explored threads repeat too: each thread has its own sequence. */
    @Test
    void keysTheThreadsGenerateRepeatPerThread(TestDatabase db) {
        try (Hibernate hibernate = Hibernate.on(db)) {
            SessionFactory sessions = hibernate.sessions();
            Set<List<UUID>> keysSeen = ConcurrentHashMap.newKeySet();
            Result result = Frontrun.explore(Object::new)
                    .database(hibernate.ds())
                    .hook(RepeatableUuids.of(sessions))
                    .stopOnFirstFailure(false)
                    .thread("a", s -> countAfterOpening(sessions))
                    .thread("b", s -> countAfterOpening(sessions))
                    .invariant(s -> keysSeen.add(sessions.fromTransaction(session -> session.createNativeQuery(
                                            "select id from accounts order by id", UUID.class)
                                    .getResultList()))
                            || true)
                    .run();

            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
            assertThat(result.executions()).as(result.explanation()).isGreaterThan(1);
            assertThat(keysSeen).as("the same two keys in every execution").hasSize(1);
            assertThat(keysSeen.iterator().next()).doesNotHaveDuplicates().hasSize(2);
        }
    }

    /**
     * Hibernate's time-based styles repeat too, each in its own version: the clock is a counter per thread. Without
     * it such an exploration ended inconclusive, as with random keys unwrapped.
     */
    @Test
    void timeBasedKeysRepeatInTheirOwnVersion(TestDatabase db) {
        try (Hibernate hibernate = Hibernate.on(db)) {
            SessionFactory sessions = hibernate.sessions();
            RepeatableUuids uuids = RepeatableUuids.of(sessions);
            Set<Object> fixedKeys = ConcurrentHashMap.newKeySet();
            Result fixed = twoDeposits(hibernate, RepeatableUuidsTest::fixedLedger, Ledger.class, fixedKeys)
                    .run();
            for (Class<?> entity : List.of(V1Account.class, V6Account.class, V7Account.class)) {
                Set<Object> keys = ConcurrentHashMap.newKeySet();
                Result generated = twoDeposits(hibernate, s -> persistNew(s, entity), entity, keys)
                        .hook(uuids)
                        .run();
                UUID outside = persistNew(sessions, entity);
                int version = entity == V1Account.class ? 1 : entity == V6Account.class ? 6 : 7;

                assertThat(generated.verdict())
                        .as(entity + ": " + generated.explanation())
                        .isEqualTo(Verdict.HOLDS);
                assertThat(generated.executions()).as(entity.getSimpleName()).isEqualTo(fixed.executions());
                assertThat(keys).as("one key in every execution").hasSize(1);
                assertThat(((UUID) keys.iterator().next()).version()).isEqualTo(version);
                assertThat(outside.version())
                        .as("outside an exploration, Hibernate's own")
                        .isEqualTo(version);
                assertThat(outside).isNotIn(keys);
            }
        }
    }

    private static UUID persistNew(SessionFactory sessions, Class<?> entity) {
        Object account;
        try {
            account = entity.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        sessions.inTransaction(s -> s.persist(account));
        return (UUID) sessions.getPersistenceUnitUtil().getIdentifier(account);
    }

    /** Opens an account, then counts the accounts: the count sees the other thread's account or not. */
    private static void countAfterOpening(SessionFactory sessions) {
        newAccount(sessions);
        sessions.inTransaction(s ->
                s.createNativeQuery("select count(*) from accounts", Long.class).getSingleResult());
    }
}

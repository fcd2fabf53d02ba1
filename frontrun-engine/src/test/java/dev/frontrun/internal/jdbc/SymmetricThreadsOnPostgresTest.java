package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Identical requests declared with {@code threads(n, name, body)} on PostgreSQL: fewer executions, the same outcomes,
 * and the declarations that would make an explored execution stand for swapped ones it does not equal refused.
 */
@ExtendWith(PostgresExtension.class)
class SymmetricThreadsOnPostgresTest {

    private DataSource raw;
    private DataSource ds;
    private TestDatabase db;

    @BeforeEach
    void card(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS card",
                "CREATE TABLE card (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO card VALUES (1, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    /** Reads the balance, then writes it less {@code amount}: the lost update when two interleave. */
    private void spend(int amount) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int balance;
            try (PreparedStatement read = c.prepareStatement("SELECT balance FROM card WHERE id = 1");
                    ResultSet rs = read.executeQuery()) {
                rs.next();
                balance = rs.getInt(1);
            }
            try (PreparedStatement write = c.prepareStatement("UPDATE card SET balance = ? WHERE id = 1")) {
                write.setInt(1, balance - amount);
                write.executeUpdate();
            }
            c.commit();
        }
    }

    private int balance() {
        return db.queryInt("SELECT balance FROM card WHERE id = 1");
    }

    private Exploration<Object> explore() {
        return Frontrun.explore(Object::new).database(raw).stopOnFirstFailure(false);
    }

    @Test
    void twoIdenticalSpendsExploreFewerExecutionsAndReachTheSameBalances() {
        Set<Integer> oneByOne = new HashSet<>();
        Result declaredApart = explore()
                .thread("spend-1", () -> spend(10))
                .thread("spend-2", () -> spend(10))
                .invariant(() -> oneByOne.add(balance()) || true)
                .run();
        Set<Integer> bySymmetry = new HashSet<>();
        Result declaredTogether = explore()
                .threads(2, "spend", () -> spend(10))
                .invariant(() -> bySymmetry.add(balance()) || true)
                .run();

        assertThat(declaredApart.executions()).isEqualTo(4);
        assertThat(declaredTogether.executions()).isEqualTo(3);
        assertThat(bySymmetry).isEqualTo(oneByOne).containsExactlyInAnyOrder(80, 90);
        assertThat(declaredApart.symmetric()).isEmpty();
        assertThat(declaredTogether.symmetric()).containsExactly(List.of("spend-1", "spend-2"));
    }

    /** Each insert's key comes from the sequence: two orders of the same two rows, one when the inserts are swaps. */
    @Test
    void insertsOfGeneratedKeysAreTheSameStepsInEachThread() {
        db.execute("DROP TABLE IF EXISTS ledger", "CREATE TABLE ledger (id serial PRIMARY KEY, amount int NOT NULL)");
        ThrowingRunnable insert = () -> {
            try (Connection c = ds.getConnection();
                    PreparedStatement st = c.prepareStatement("INSERT INTO ledger (amount) VALUES (?)")) {
                st.setInt(1, -10);
                st.executeUpdate();
            }
        };

        Result apart = explore().thread("a", insert).thread("b", insert).run();
        Result together = explore().threads(2, "insert", insert).run();

        assertThat(apart.executions()).isEqualTo(2);
        assertThat(together.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(together.executions()).isEqualTo(1);
    }

    @Test
    void theLostUpdateIsFoundAndTheSummarySaysSymmetryWasUsed() {
        Result result = explore()
                .threads(2, "spend", () -> spend(10))
                .invariant(() -> balance() == 80, "both spends are kept")
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.summary())
                .contains(
                        "  symmetry: spend-1 and spend-2 run one body: of the executions that only swap them, one ran");
    }

    @Test
    void bodiesThatDoNotDoTheSameWhenEachRunsFirstAreRefused() {
        AtomicInteger spends = new AtomicInteger();
        Result result = explore()
                .threads(2, "spend", () -> spend(10 * spends.incrementAndGet()))
                .invariant(() -> true)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(result.summary())
                .contains("spend-1 and spend-2 were declared by threads(n, name, body) to run the same body")
                .contains("at its step 3");
        assertThat(result.executions()).isZero();
        assertThat(balance()).as("the database is put back").isEqualTo(100);
    }

    @Test
    void anInvariantNamingOneOfThemIsRefused() {
        Result result = explore()
                .threads(2, "spend", () -> spend(10))
                .invariant((s, outcomes) -> outcomes.of("spend-1").succeeded())
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(result.explanation())
                .contains("the invariant names thread 'spend-1', one of [spend-1, spend-2] declared by threads(n,"
                        + " name, body) to run the same body");
    }

    @Test
    void anAnswerExpectedOfOneOfThemIsRefused() {
        Exploration<Object> exploration =
                explore().threads(2, "spend", () -> spend(10)).expect("spend-2", IllegalStateException.class);

        assertThatThrownBy(exploration::run)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expect(\"spend-2\", ...) names one of [spend-1, spend-2]");
    }

    @Test
    void fewerThanTwoAreRefused() {
        assertThatThrownBy(() -> explore().threads(1, "spend", () -> spend(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 2 threads");
    }
}

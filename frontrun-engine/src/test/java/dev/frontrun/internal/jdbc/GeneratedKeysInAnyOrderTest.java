package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code generatedKeysInAnyOrder()} on PostgreSQL: draws from one sequence commute, a {@code setval} does not, and
 * code that does not look at the keys reaches the outcomes of the full exploration.
 */
@ExtendWith(PostgresExtension.class)
class GeneratedKeysInAnyOrderTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void entries(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS entry",
                "CREATE TABLE entry (id serial PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO entry (n) VALUES (0)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    @Test
    void twoTransactionsDrawingKeysExploreOneExecutionAndSaySo() {
        Result declared = explore(e -> e.generatedKeysInAnyOrder(), () -> insert(1), () -> insert(2));
        Result full = explore(UnaryOperator.identity(), () -> insert(1), () -> insert(2));

        assertThat(declared.executions()).as(declared.explanation()).isEqualTo(1);
        assertThat(declared.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(declared.notExplored())
                .singleElement()
                .asString()
                .contains("which thread draws which generated key", "generatedKeysInAnyOrder()");
        assertThat(declared.summary()).contains("not explored: which thread draws which generated key");
        assertThat(full.executions()).as("who draws first").isEqualTo(2);
        assertThat(full.notExplored()).isEmpty();
    }

    @Test
    void aSetvalIsStillOrderedAgainstADraw() {
        Result result = explore(
                e -> e.generatedKeysInAnyOrder(),
                () -> sql("SELECT nextval('entry_id_seq')"),
                () -> sql("SELECT setval('entry_id_seq', 100)"));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
    }

    @Test
    void twoDrawsOfOneSequenceCommuteWhenDeclared() {
        Result declared = explore(
                e -> e.generatedKeysInAnyOrder(),
                () -> sql("SELECT nextval('entry_id_seq')"),
                () -> sql("SELECT nextval('entry_id_seq')"));
        Result full = explore(
                UnaryOperator.identity(),
                () -> sql("SELECT nextval('entry_id_seq')"),
                () -> sql("SELECT nextval('entry_id_seq')"));

        assertThat(declared.executions()).as(declared.explanation()).isEqualTo(1);
        assertThat(full.executions()).as(full.explanation()).isEqualTo(2);
    }

    /** Where only the count of rows matters, the declared exploration reaches every outcome of the full one. */
    @Test
    void codeThatOnlyCountsReachesEveryOutcomeOfTheFullExploration() {
        Set<String> declared = counted(e -> e.generatedKeysInAnyOrder());
        Set<String> full = counted(UnaryOperator.identity());

        assertThat(declared).isEqualTo(full).hasSizeGreaterThan(1);
    }

    private Set<String> counted(UnaryOperator<Exploration<List<String>>> declare) {
        Set<String> seen = new HashSet<>();
        Exploration<List<String>> exploration = Frontrun.<List<String>>explore(ArrayList::new)
                .database(raw)
                .thread("a", answers -> answers.add("a" + insertAndCount(1)))
                .thread("b", answers -> answers.add("b" + insertAndCount(2)));
        Result result = declare.apply(exploration)
                .invariant((answers, outcomes) -> {
                    seen.add(answers.stream().sorted().toList().toString());
                    return true;
                })
                .run();
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        return seen;
    }

    private Result explore(UnaryOperator<Exploration<Object>> declare, Body first, Body second) {
        Exploration<Object> exploration = Frontrun.explore(Object::new)
                .database(raw)
                .stopOnFirstFailure(false)
                .thread("first", s -> first.run())
                .thread("second", s -> second.run());
        return declare.apply(exploration).run();
    }

    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    private void sql(String sql) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private void insert(int n) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO entry (n) VALUES (" + n + ")");
            }
            c.commit();
        }
    }

    /** Inserts a row, then counts the rows other threads inserted. */
    private int insertAndCount(int n) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.execute("INSERT INTO entry (n) VALUES (" + n + ")");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM entry WHERE n > 0")) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}

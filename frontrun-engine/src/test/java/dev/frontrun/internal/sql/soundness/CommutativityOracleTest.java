package dev.frontrun.internal.sql.soundness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.frontrun.internal.sql.Classification;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The semantic soundness check, with PostgreSQL as the oracle: whenever the classifier reports two
 * statements independent, executing them in either order from the same state must give each the
 * same result and leave the same database state. Statements are generated, broken and scrambled as in
 * {@link SoundnessPropertyTest}, so the oracle also covers text whose meaning nobody predicted.
 */
@ExtendWith(PostgresExtension.class)
class CommutativityOracleTest {

    private static final int PAIRS = 1500;
    private static final int MAX_ATTEMPTS = 60_000;
    private static final String[] TABLES = {"t1", "t2", "t3", "t4"};

    @Test
    void independentStatementsCommuteOnARealDatabase(TestDatabase db) throws SQLException {
        db.execute(StatementGenerator.DDL);
        db.execute(
                "INSERT INTO t1 VALUES (1, 10), (2, 20), (3, 30)",
                "INSERT INTO t2 VALUES (1, 1, 0), (1, 2, 0), (2, 1, 0)",
                "INSERT INTO t3 VALUES (2, 200), (3, 300), (4, 400)",
                "INSERT INTO t4 (v) VALUES (5), (6)");
        long seed = SoundnessPropertyTest.seeds()[0];
        Random random = new Random(seed);
        StatementGenerator generator = new StatementGenerator(random);
        Mutator mutator = new Mutator(random);
        SqlClassifier classifier = new SqlClassifier(SoundnessPropertyTest.catalog());

        List<GeneratedStatement> pool = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            GeneratedStatement g = generator.next();
            pool.add(g);
            pool.add(mutator.scrambled(g));
            if (i % 3 == 0) {
                pool.add(mutator.broken(g));
            }
        }
        pool.removeIf(g -> !executable(classifier, g));

        int checked = 0;
        int withData = 0;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("SET statement_timeout = '5s'");
            }
            for (int attempt = 0; attempt < MAX_ATTEMPTS && checked < PAIRS; attempt++) {
                GeneratedStatement a = pool.get(random.nextInt(pool.size()));
                GeneratedStatement b = pool.get(random.nextInt(pool.size()));
                StatementAccesses accessesA = classifier.classify(a.sql()).bind(a.params());
                StatementAccesses accessesB = classifier.classify(b.sql()).bind(b.params());
                if (accessesA.conflictsWith(accessesB)) {
                    continue;
                }
                Run ab = run(c, a, b);
                Run ba = run(c, b, a);
                if (!ab.first.equals(ba.second) || !ab.second.equals(ba.first) || !ab.state.equals(ba.state)) {
                    fail(
                            "seed %d: statements reported independent do not commute%n  A: %s%n     %s%n  B: %s%n     %s%n"
                                    + "  A then B: A=%s B=%s state=%s%n  B then A: A=%s B=%s state=%s",
                            seed,
                            a,
                            accessesA.accesses(),
                            b,
                            accessesB.accesses(),
                            ab.first,
                            ab.second,
                            ab.state,
                            ba.second,
                            ba.first,
                            ba.state);
                }
                checked++;
                if (!accessesA.accesses().isEmpty() && !accessesB.accesses().isEmpty()) {
                    withData++;
                }
            }
            c.rollback();
        }
        assertThat(checked).as("independent pairs checked").isEqualTo(PAIRS);
        assertThat(withData).as("pairs where both statements touch data").isGreaterThan(PAIRS / 3);
    }

    /** Skips what would disturb the harness itself: transaction control, session settings, several statements. */
    private static boolean executable(SqlClassifier classifier, GeneratedStatement g) {
        Classification c = classifier.classify(g.sql());
        return c.kind() != StatementKind.TRANSACTION
                && c.kind() != StatementKind.UTILITY
                && !g.sql().contains(";")
                && !g.sql().toLowerCase().contains("limit");
    }

    private record Run(String first, String second, String state) {}

    private static Run run(Connection c, GeneratedStatement first, GeneratedStatement second) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SAVEPOINT pair");
            st.execute("SELECT setval('t4_id_seq', 2)");
            String x = outcome(c, first);
            String y = outcome(c, second);
            String state = state(c);
            st.execute("ROLLBACK TO SAVEPOINT pair");
            return new Run(x, y, state);
        }
    }

    /** What the statement returned (rows sorted), its update count, or its SQLState. */
    private static String outcome(Connection c, GeneratedStatement g) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SAVEPOINT stmt");
        }
        try (PreparedStatement ps = c.prepareStatement(g.sql())) {
            int placeholders = SqlLexer.lex(g.sql()).placeholders();
            for (int i = 0; i < Math.min(placeholders, g.params().size()); i++) {
                ps.setObject(i + 1, g.params().get(i));
            }
            String result = ps.execute() ? rows(ps.getResultSet()) : "count " + ps.getUpdateCount();
            try (Statement st = c.createStatement()) {
                st.execute("RELEASE SAVEPOINT stmt");
            }
            return result;
        } catch (SQLException e) {
            try (Statement st = c.createStatement()) {
                st.execute("ROLLBACK TO SAVEPOINT stmt");
            }
            return "error " + e.getSQLState();
        }
    }

    private static String state(Connection c) throws SQLException {
        StringBuilder s = new StringBuilder();
        try (Statement st = c.createStatement()) {
            for (String table : TABLES) {
                try (ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
                    s.append(table).append(rows(rs)).append(' ');
                }
            }
        }
        return s.toString();
    }

    private static String rows(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder row = new StringBuilder("(");
            for (int i = 1; i <= columns; i++) {
                row.append(i > 1 ? "," : "").append(rs.getString(i));
            }
            rows.add(row.append(')').toString());
        }
        Collections.sort(rows);
        return rows.toString();
    }
}

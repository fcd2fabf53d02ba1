package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.Verdict;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The value that decides a lost update is shown even when an ORM's UPDATE sets every column: two requests each load a
 * product with two in stock and write back every column with one taken, as Hibernate does; the summary, the
 * explanation and the report show {@code stock_quantity = 1} for both writes, though the statement's text is cut long
 * before that column.
 */
@ExtendWith(PostgresExtension.class)
class DecidingValueTest {

    private static final String[] COLUMNS = {
        "brand",
        "category",
        "created_by",
        "description",
        "gtin",
        "long_description",
        "meta_description",
        "meta_keyword",
        "meta_title",
        "name",
        "short_description",
        "sku",
        "slug",
        "stock_quantity",
        "tax_class",
        "unit"
    };
    /** The UPDATE as Hibernate writes it: every column, alphabetically, by parameters. */
    private static final String UPDATE = "update product set " + String.join("=?,", COLUMNS) + "=? where id=?";

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void product(TestDatabase db) {
        StringBuilder create = new StringBuilder("CREATE TABLE product (id int PRIMARY KEY");
        StringBuilder values = new StringBuilder("INSERT INTO product VALUES (1");
        for (String column : COLUMNS) {
            boolean stock = column.equals("stock_quantity");
            create.append(", ").append(column).append(stock ? " int NOT NULL" : " varchar(80) NOT NULL");
            values.append(", ").append(stock ? "2" : "'the " + column.replace('_', ' ') + " of the kettle'");
        }
        db.execute("DROP TABLE IF EXISTS product", create + ")", values + ")");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    /** Loads the product (every column, by name) and writes every column back with one taken from the stock. */
    private void buyOne() throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            Object[] row = new Object[COLUMNS.length];
            try (PreparedStatement ps =
                    c.prepareStatement("select " + String.join(",", COLUMNS) + " from product where id=?")) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    for (int i = 0; i < COLUMNS.length; i++) {
                        row[i] = COLUMNS[i].equals("stock_quantity")
                                ? (Object) (rs.getInt(COLUMNS[i]) - 1)
                                : rs.getString(COLUMNS[i]);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(UPDATE)) {
                for (int i = 0; i < row.length; i++) {
                    ps.setObject(i + 1, row[i]);
                }
                ps.setInt(row.length + 1, 1);
                ps.executeUpdate();
            }
            c.commit();
        }
    }

    private int stock() {
        try (Connection c = raw.getConnection();
                ResultSet rs = c.createStatement().executeQuery("SELECT stock_quantity FROM product WHERE id = 1")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theLostValueIsShownForBothWritesThoughTheStatementIsCut(@TempDir Path reports) throws IOException {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> buyOne())
                .thread("bob", s -> buyOne())
                .invariant(s -> stock() == 0, "stock() == 0")
                .reproduceOnFailure(0)
                .reportDirectory(reports)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.anomaly()).map(a -> a.kind()).contains(AnomalyKind.LOST_UPDATE);
        List<String> updates = result.trace().stream()
                .map(TraceStep::step)
                .filter(step ->
                        step.detail() instanceof SqlStep sql && sql.statement().startsWith("update product"))
                .map(step -> ((SqlStep) step.detail()).statement())
                .toList();
        assertThat(updates).as("both writes ran").hasSize(2);
        assertThat(UPDATE.length()).isGreaterThan(200);
        assertThat(updates)
                .as("the statement's text is cut before the value that decides")
                .allSatisfy(text -> assertThat(text).doesNotContain("stock_quantity=1"));

        List<String> summaryUpdates = result.summary()
                .lines()
                .filter(line -> line.contains("update product"))
                .toList();
        assertThat(summaryUpdates)
                .as(result.summary())
                .hasSize(2)
                .allSatisfy(line -> assertThat(line).contains("sets stock_quantity = 1 · update product"));
        assertThat(result.summary())
                .as("the read the lost update rests on")
                .contains("read stock_quantity = 2 · select");
        assertThat(occurrences(result.explanation(), "sets stock_quantity = 1\n"))
                .as(result.explanation())
                .isEqualTo(2);
        assertThat(result.explanation()).as("unchanged columns are not shown").doesNotContain("sets brand");
        String report = Files.readString(result.report().orElseThrow());
        assertThat(occurrences(report, "sets stock_quantity = 1 · update product"))
                .as("the timeline's boxes")
                .isGreaterThanOrEqualTo(2);
        assertThat(report).as("a step's details list every value it set").contains("sets brand = ");
    }

    private static int occurrences(String text, String part) {
        Matcher m = Pattern.compile(Pattern.quote(part)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}

package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.sync.fixtures.LastPrice;
import dev.frontrun.sync.fixtures.PriceCache;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One race over a map entry (or a field) and a database row: a read-through cache left stale by a write. */
@ExtendWith(PostgresExtension.class)
class MixedSqlAndMemoryTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void products(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS product",
                "CREATE TABLE product (id int PRIMARY KEY, price int NOT NULL)",
                "INSERT INTO product VALUES (1, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private int priceInDatabase() throws SQLException {
        try (Connection c = raw.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT price FROM product WHERE id = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aReaderCachingTheOldPriceAfterTheWritersInvalidationLeavesTheCacheStale() {
        Result result = Frontrun.explore(() -> new PriceCache(ds))
                .database(raw)
                .instrument("dev.frontrun.sync.fixtures")
                .thread("reader", s -> {
                    s.price(1);
                })
                .thread("writer", s -> s.update(1, 200))
                .invariant(
                        s -> {
                            Integer cached = s.cached(1);
                            try {
                                return cached == null || cached == priceInDatabase();
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        "the cache agrees with the database")
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduced()).isEqualTo(10);
        // the failing trace has both kinds of step: the reader's SELECT before the UPDATE, its put after the remove
        assertThat(result.trace()).anyMatch(step -> step.step().label().startsWith("put map:"));
        assertThat(result.trace()).anyMatch(step -> step.step().label().contains("UPDATE product"));
    }

    @Test
    void aReaderKeepingTheOldPriceInAFieldAfterTheWriterClearedItLeavesItStale() {
        Result result = Frontrun.explore(() -> new LastPrice(ds))
                .database(raw)
                .instrument("dev.frontrun.sync.fixtures")
                .thread("reader", s -> {
                    s.price(1);
                })
                .thread("writer", s -> s.update(1, 200))
                .invariant(
                        s -> {
                            Integer kept = s.last();
                            try {
                                return kept == null || kept == priceInDatabase();
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        "the kept price agrees with the database")
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduced()).isEqualTo(10);
        // the failing trace: the reader's SELECT before the UPDATE, its write of the field after the writer's
        assertThat(result.trace())
                .anyMatch(step -> step.step().label().equals("write field:dev.frontrun.sync.fixtures.LastPrice.last")
                        && step.threadName().equals("reader"));
        assertThat(result.trace()).anyMatch(step -> step.step().label().contains("UPDATE product"));
    }
}

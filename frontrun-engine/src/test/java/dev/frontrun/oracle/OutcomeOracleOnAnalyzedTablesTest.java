package dev.frontrun.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The outcome oracle on tables {@code ANALYZE} measured, as an application's tables usually are: both the ground truth
 * and the explorations start every program with one-page tables, which the planner scans sequentially. A SERIALIZABLE
 * read then takes a predicate lock on the whole relation, and checks every row on the page for a concurrent writer, not
 * only the row it asked for: PostgreSQL sees read-write conflicts between transactions that touch different rows, and
 * dooms other transactions than with index scans.
 */
@ExtendWith(PostgresExtension.class)
class OutcomeOracleOnAnalyzedTablesTest {

    /**
     * What the sweep's programs draw from: SERIALIZABLE and REPEATABLE READ transactions and autocommit statements,
     * reading and writing by key and by predicate, with three threads at times.
     */
    static final Set<Category> CATEGORIES = EnumSet.of(
            Category.SERIALIZABLE,
            Category.REPEATABLE_READ,
            Category.AUTOCOMMIT,
            Category.PK_READ,
            Category.UPDATE_PK,
            Category.PREDICATE_READ,
            Category.UPDATE_PREDICATE,
            Category.INSERT_GENERATED_KEY,
            Category.THREE_THREADS);

    private static OutcomeOracle oracle;

    @BeforeAll
    static void oracle(TestDatabase db) throws SQLException {
        oracle = new OutcomeOracle(db, OracleSchema.Statistics.ANALYZED);
    }

    @AfterAll
    static void close() throws SQLException {
        oracle.close();
    }

    /** Seeded programs, their outcomes on analyzed tables each reached in every declaration order. */
    @TestFactory
    Stream<DynamicTest> everyOutcomeOfTheServerIsReachedInEveryDeclarationOrder() {
        return OutcomeOracleTest.sweep(
                oracle, CATEGORIES, OutcomeOracleTest.BASE_SEED + 9_000_000, OutcomeOracleTest.PROGRAMS / 10);
    }

    /**
     * t0 reads item 1 and writes item 2; t1 writes item 1. t1's update scans the table and meets t0's uncommitted
     * version of item 2 (t1 → t0), and t0 read item 1 before t1 wrote it (t0 → t1). Whichever commits first dooms the
     * other as the pivot of that cycle: with t0 first, t1's COMMIT fails with 40001, an outcome no schedule has when
     * the update looks item 1 up by the primary key's index ({@link
     * OutcomeOracleTest#aReadThatDoomsAnotherSerializableTransactionIsOrderedAgainstItsNextStatement}). The
     * exploration reaches it: a commit that wrote is ordered against every later statement of a serializable
     * transaction under way, its COMMIT included, whichever rows they touch.
     */
    @Test
    void aSequentialScanDoomsAWriterOfAnotherRow() throws SQLException {
        ProgramCheck check = oracle.check(OutcomeOracleTest.threeSerializableTransactions());

        OutcomeOracleTest.assertEveryOutcomeReached(check);
        assertThat(check.truth().outcomes().keySet())
                .as("the server's outcome where t0's commit dooms t1")
                .anyMatch(key -> key.contains("t0[s1=[(10,a,f)], s2=1, s3=[(1)], commit=ok] t1[s1=1, commit!40001]"));
    }
}

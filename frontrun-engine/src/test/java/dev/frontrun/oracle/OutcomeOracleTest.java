package dev.frontrun.oracle;

import static dev.frontrun.oracle.Programs.autocommit;
import static dev.frontrun.oracle.Programs.op;
import static dev.frontrun.oracle.Programs.program;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.oracle.Op.Kind;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The outcome oracle in the normal suite: on seeded programs over the categories the model
 * certifies today, every outcome the real server produces in some statement-level schedule is
 * reached by Frontrun's exhaustive exploration, whatever order the threads are declared in. Each
 * dynamic test names its seed; {@link OracleMain} runs thousands and sweeps categories one by one.
 */
@ExtendWith(PostgresExtension.class)
class OutcomeOracleTest {

    static final long BASE_SEED = 0x0DAC_1E00L;
    /** Programs in the normal suite ({@code -Dfrontrun.oracle.programs} changes it). */
    static final int PROGRAMS = Integer.getInteger("frontrun.oracle.programs", 200);
    /** Programs whose plain step interleavings exceed this are not generated: brute force stays cheap. */
    static final long MAX_INTERLEAVINGS = 120;
    /** What every program of a category sweep has besides the category under test. */
    static final Set<Category> CORE = EnumSet.of(Category.PK_READ, Category.UPDATE_PK, Category.AUTOCOMMIT,
            Category.READ_COMMITTED);

    /**
     * The categories the model does not certify yet, each with what the oracle finds on the current
     * engine. This is not a list of skipped tests: it is the scope of the claim. An exhausted
     * exploration of a program using only the other categories reached every outcome the server
     * produced; with one of these, the server produces outcomes no exploration reaches, so a HOLDS
     * verdict there can be wrong. The list shrinks as the model is fixed: when a category's
     * {@link Counterexamples counterexample} is reached, {@link #everyCategoryNotYetCertifiedStillMissesItsCounterexample}
     * fails and asks for the category to be swept ({@code OracleMain --sweep}) and certified.
     */
    static final Map<Category, String> NOT_YET_CERTIFIED = notYetCertified();

    private static Map<Category, String> notYetCertified() {
        Map<Category, String> out = new EnumMap<>(Category.class);
        out.put(Category.NOWAIT, "a NOWAIT on a row another transaction holds fails at once with 55P03;"
                + " the exploration only runs it once the holder has ended");
        out.put(Category.SKIP_LOCKED, "with an UPDATE that matched no row in the same transactions, SKIP LOCKED"
                + " reads miss an outcome and the exploration reports a deadlock the server never has");
        out.put(Category.UPDATE_THEN_INSERT, "two update-then-insert transactions on an absent row: the INSERT"
                + " that waits for the other's commit and fails with 23505 is never explored");
        out.put(Category.INSERT_GENERATED_KEY, "inserts taking keys from one serial are explored as independent:"
                + " one order of the generated ids only");
        out.put(Category.INSERT_DEFAULT_KEY, "an INSERT omitting a key with a constant DEFAULT is not seen to"
                + " write that row: reads and writes of it are explored in one order only");
        out.put(Category.PARTIAL_UNIQUE, "soft-deleting and reviving two rows of one name under a partial unique"
                + " index are explored as independent: one of 23505 or success only");
        out.put(Category.NEXTVAL, "nextval calls are explored as independent: one order of the values only");
        out.put(Category.REPEATABLE_READ, "the snapshot taken by the first statement, and 40001 after waiting for"
                + " a writer that then commits, are not explored");
        out.put(Category.SERIALIZABLE, "the snapshot taken by the first statement is not explored (writes before"
                + " it are assumed to be read like writes after it), nor every serialization failure");
        return Map.copyOf(out);
    }

    /** Every category minus {@link #NOT_YET_CERTIFIED}. */
    static Set<Category> certified() {
        Set<Category> out = EnumSet.allOf(Category.class);
        out.removeAll(NOT_YET_CERTIFIED.keySet());
        return out;
    }

    /**
     * What an exploration may reach although no schedule on the server produced it: a deadlock the
     * model predicts falsely (a false alarm, not a missed outcome), and a serialization failure. In
     * the 2,000-program runs a few SERIALIZABLE programs, on every engine, had an exploration hit 40001
     * where no ground-truth schedule did; SSI's predicate locks are coarser than rows (pages,
     * relations), so the failure may depend on state the statement order does not fix, such as where
     * rows lie after a restore. Not explained yet, so tolerated here and shown in every report.
     * Anything else unexpected would mean a restore or nondeterminism bug.
     */
    static boolean mayBeUnexpected(String key) {
        return key.equals(Outcome.DEADLOCK) || key.contains("!40001");
    }

    private static OutcomeOracle oracle;

    @BeforeAll
    static void oracle(TestDatabase db) throws SQLException {
        oracle = new OutcomeOracle(db);
    }

    @AfterAll
    static void close() throws SQLException {
        oracle.close();
    }

    @TestFactory
    Stream<DynamicTest> everyOutcomeOfTheServerIsReachedInEveryDeclarationOrder() {
        ProgramGenerator generator = new ProgramGenerator(certified(), MAX_INTERLEAVINGS);
        return LongStream.range(0, PROGRAMS).map(i -> BASE_SEED + i).mapToObj(seed ->
                DynamicTest.dynamicTest("seed " + seed, () -> {
                    ProgramCheck check = oracle.check(generator.generate(seed));
                    if (!check.decided()) {
                        assertThat(check.truth().race()).as("two statements waiting at once")
                                .filteredOn(line -> line.contains("waits for")).hasSizeGreaterThanOrEqualTo(2);
                        return;
                    }

                    assertThat(check.problems()).as(check.report()).isEmpty();
                    assertThat(check.missing()).as(check.report()).isEmpty();
                    assertThat(check.unexpected()).as("outcomes the server never produced\n%s", check.report())
                            .allMatch(OutcomeOracleTest::mayBeUnexpected);
                }));
    }

    @Test
    void anExplorationCutShortIsCaughtMissingTheOutcomeItDidNotRun() throws SQLException {
        Program racy = program(autocommit(op(Kind.READ_PK, 1)), autocommit(op(Kind.UPDATE_SET, 201, 1)));

        ProgramCheck crippled = oracle.check(racy, exploration -> exploration.maxExecutions(1));
        ProgramCheck complete = oracle.check(racy);

        assertThat(crippled.truth().outcomes()).hasSize(2);
        assertThat(crippled.passed()).isFalse();
        assertThat(crippled.missing()).as("each declaration order runs the other serial order first").hasSize(2);
        assertThat(crippled.explorations()).allSatisfy(e -> assertThat(ProgramCheck.missing(crippled.truth(), e)).hasSize(1));
        assertThat(crippled.report()).contains("MISSING t0[s1=[(", "produced on the server by:",
                "t1: UPDATE item SET v = 201 WHERE id = 1  → s1=1");
        assertThat(complete.passed()).as(complete.report()).isTrue();
    }

    @TestFactory
    Stream<DynamicTest> everyCategoryNotYetCertifiedStillMissesItsCounterexample() {
        assertThat(Counterexamples.all().keySet()).isEqualTo(NOT_YET_CERTIFIED.keySet());
        return Counterexamples.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey().name(), () -> {
            Set<Category> uncertified = EnumSet.copyOf(e.getValue().categories());
            uncertified.removeAll(certified());
            assertThat(uncertified).as("the counterexample uses no other uncertified category").containsExactly(e.getKey());

            ProgramCheck check = oracle.check(e.getValue());

            assertThat(check.missing())
                    .as("%s is reached now: sweep it (OracleMain --sweep 200 --categories %s) and, if it passes,"
                            + " remove it from NOT_YET_CERTIFIED\n%s", e.getKey(), e.getKey(), check.report())
                    .isNotEmpty();
        }));
    }
}

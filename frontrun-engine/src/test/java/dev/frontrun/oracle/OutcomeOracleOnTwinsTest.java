package dev.frontrun.oracle;

import static dev.frontrun.oracle.Programs.autocommit;
import static dev.frontrun.oracle.Programs.op;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.oracle.Op.Kind;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The outcome oracle on identical threads: symmetry is a reduction, so it counts once the server agrees. Each program's
 * threads 0 and 1 are twins (one thread program, the same statements and values), beside perhaps a third; brute force
 * runs every schedule on the server, the exploration declares the twins with {@code threads(2, name, body)}, and every
 * outcome of the server is reached up to swapping the twins: the same final database, the twins' answers as a multiset.
 * {@code OracleMain --twins} runs more.
 */
@ExtendWith(PostgresExtension.class)
class OutcomeOracleOnTwinsTest {

    /** The first seed of the twins' programs (fixed once chosen). */
    static final long FIRST_SEED = OutcomeOracleTest.BASE_SEED + 9_000_000;
    /** Programs in the normal suite ({@code -Dfrontrun.oracle.twins} changes it). */
    static final int PROGRAMS = Integer.getInteger("frontrun.oracle.twins", 30);

    private static final List<List<String>> TWINS = List.of(List.of("twin-1", "twin-2"));

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
    Stream<DynamicTest> everyOutcomeOfTheServerIsReachedUpToSwappingTheTwins() {
        ProgramGenerator generator =
                new ProgramGenerator(OutcomeOracleTest.certified(), OutcomeOracleTest.MAX_INTERLEAVINGS);
        return LongStream.range(FIRST_SEED, FIRST_SEED + PROGRAMS)
                .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
                    Program program = generator.generateTwins(seed);
                    assertThat(program.threads().get(1))
                            .isEqualTo(program.threads().get(0));

                    ProgramCheck check = oracle.check(program);

                    if (!check.decided()) {
                        assertThat(check.truth().race())
                                .as("two statements waiting at once")
                                .filteredOn(line -> line.contains("waits for"))
                                .hasSizeGreaterThanOrEqualTo(2);
                        return;
                    }
                    // a problem is also an exploration that ended in ERROR: the symmetry check refused the twins
                    assertThat(check.problems()).as(check.report()).isEmpty();
                    assertThat(check.explorations())
                            .as("every declaration order explored the twins by symmetry")
                            .allSatisfy(e -> assertThat(e.symmetric()).isEqualTo(TWINS));
                    assertThat(check.missing()).as(check.report()).isEmpty();
                    assertThat(check.unexpected())
                            .as("outcomes the server never produced\n%s", check.report())
                            .isEmpty();
                    assertThat(check.serialDisagreements())
                            .as("serializable() against the server's serial schedules\n%s", check.report())
                            .isEmpty();
                }));
    }

    /**
     * Twin inserts of a note, each keyed by the sequence: the server's two schedules differ only in which twin got which
     * key, one outcome up to the swap, and the exploration by symmetry runs one execution where declared apart it runs
     * two.
     */
    @Test
    void twinsSwappedAreOneOutcomeAndOneExecution() throws SQLException {
        ThreadProgram insert = autocommit(op(Kind.INSERT_NOTE, 1, "n"));
        Program twins = new Program(0, List.of(insert, insert), true);
        Program apart = new Program(0, List.of(insert, insert), false);

        ProgramCheck together = oracle.check(twins);
        ProgramCheck separately = oracle.check(apart);

        assertThat(together.passed()).as(together.report()).isTrue();
        assertThat(separately.passed()).as(separately.report()).isTrue();
        assertThat(separately.truth().outcomes()).hasSize(2);
        assertThat(together.truth().outcomes()).hasSize(1);
        assertThat(together.explorations()).singleElement().satisfies(e -> {
            assertThat(e.executions()).isEqualTo(1);
            assertThat(e.symmetric()).isEqualTo(TWINS);
        });
        assertThat(separately.explorations())
                .allSatisfy(e -> assertThat(e.executions()).isEqualTo(2));
    }

    /** The comparison up to the swap still catches an outcome an exploration did not reach. */
    @Test
    void aTwinExplorationCutShortIsCaughtMissingAnOutcome() throws SQLException {
        ThreadProgram readThenAdd = Programs.transaction(
                ThreadProgram.Mode.READ_COMMITTED, op(Kind.READ_PK, 1), op(Kind.UPDATE_ADD, 10, 1));
        Program twins = new Program(0, List.of(readThenAdd, readThenAdd), true);

        ProgramCheck crippled = oracle.check(twins, exploration -> exploration.maxExecutions(1));
        ProgramCheck complete = oracle.check(twins);

        assertThat(crippled.truth().outcomes()).hasSizeGreaterThan(1);
        assertThat(crippled.missing()).as(crippled.report()).isNotEmpty();
        assertThat(complete.passed()).as(complete.report()).isTrue();
    }
}

package dev.frontrun.internal.sql.soundness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.resource.Granularity;
import dev.frontrun.internal.sql.schema.FixedTableCatalog;
import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.StatementKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Seeded property test of the whole classifier: it never throws, its answers are well formed, and
 * they are never finer than sound — whenever the ground truth says two generated statements conflict,
 * their reported accesses conflict too. Text PostgreSQL rejects for sure must conflict with every
 * data access. Run another seed with {@code -Dfrontrun.sql.seed=N}; every failure names its seed.
 */
public class SoundnessPropertyTest {

    private static final int VALID = 2400;
    private static final int BROKEN = 600;
    private static final int SCRAMBLED = 3000;
    private static final int BLOCK = 400;

    public static FixedTableCatalog catalog() {
        return FixedTableCatalog.of(
                TableInfo.table("t1").key("id", KeyType.INTEGER).build(),
                TableInfo.table("t2")
                        .key("a", KeyType.INTEGER)
                        .key("b", KeyType.INTEGER)
                        .build(),
                TableInfo.table("t3").key("id", KeyType.INTEGER).build(),
                TableInfo.table("t4").key("id", KeyType.INTEGER).build());
    }

    public static long[] seeds() {
        String override = System.getProperty("frontrun.sql.seed");
        return override != null ? new long[] {Long.parseLong(override)} : new long[] {20240611L, 7L, 1337L};
    }

    @TestFactory
    Stream<DynamicTest> classifierIsSoundOnGeneratedAndMutatedSql() {
        return Arrays.stream(seeds()).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
    }

    private record Case(GeneratedStatement statement, StatementAccesses accesses) {}

    private static void check(long seed) {
        Random random = new Random(seed);
        StatementGenerator generator = new StatementGenerator(random);
        Mutator mutator = new Mutator(random);
        SqlClassifier classifier = new SqlClassifier(catalog());

        List<GeneratedStatement> valid = new ArrayList<>();
        for (int i = 0; i < VALID; i++) {
            valid.add(generator.next());
        }
        List<Case> known = new ArrayList<>();
        for (GeneratedStatement g : valid) {
            known.add(classify(seed, classifier, g));
        }
        for (int i = 0; i < BROKEN; i++) {
            GeneratedStatement g = mutator.broken(valid.get(random.nextInt(VALID)));
            Case c = classify(seed, classifier, g);
            if (classifier.classify(g.sql()).kind() == StatementKind.UTILITY) {
                // SET/SHOW/RESET… are recognised by their first word; valid or not they touch no table
                assertThat(c.accesses().accesses()).as("seed %d: %s", seed, g).isEmpty();
                continue;
            }
            assertThat(c.accesses().accesses())
                    .as("seed %d: %s", seed, g)
                    .containsExactly(ResourceAccess.write("sql:*"));
            known.add(c);
        }
        for (int i = 0; i < SCRAMBLED; i++) {
            wellFormed(seed, classify(seed, classifier, mutator.scrambled(valid.get(random.nextInt(VALID)))));
        }
        known.forEach(c -> wellFormed(seed, c));

        long independentInTruth = 0;
        long independentReported = 0;
        for (int from = 0; from < known.size(); from += BLOCK) {
            List<Case> block = known.subList(from, Math.min(known.size(), from + BLOCK));
            for (int i = 0; i < block.size(); i++) {
                for (int j = i; j < block.size(); j++) {
                    Case x = block.get(i);
                    Case y = block.get(j);
                    boolean truth = truth(x).conflictsWith(truth(y));
                    boolean reported = x.accesses().conflictsWith(y.accesses());
                    if (truth && !reported) {
                        fail(
                                "seed %d: missed conflict between%n  %s%n    -> %s%n  %s%n    -> %s",
                                seed,
                                x.statement(),
                                x.accesses().accesses(),
                                y.statement(),
                                y.accesses().accesses());
                    }
                    if (!truth && !x.statement().broken() && !y.statement().broken()) {
                        independentInTruth++;
                        independentReported += reported ? 0 : 1;
                    }
                }
            }
        }
        assertThat((double) independentReported / independentInTruth)
                .as("seed %d: share of truly independent pairs reported independent (precision)", seed)
                .isGreaterThan(0.7);
    }

    private static Footprint truth(Case c) {
        return c.statement().broken() ? Footprint.everything() : c.statement().truth();
    }

    private static Case classify(long seed, SqlClassifier classifier, GeneratedStatement g) {
        try {
            return new Case(g, classifier.classify(g.sql()).bind(g.params()));
        } catch (RuntimeException | Error e) {
            throw new AssertionError("seed " + seed + ": classifier threw on " + g, e);
        }
    }

    /** Resource ids are SQL ids; data accesses come with an endpoint access; ENDPOINT means a strong one. */
    private static void wellFormed(long seed, Case c) {
        List<ResourceAccess> accesses = c.accesses().accesses();
        String what = "seed " + seed + ": " + c.statement() + " -> " + accesses;
        assertThat(accesses).as(what).allMatch(a -> a.resource().startsWith("sql:"));
        if (!accesses.isEmpty()) {
            assertThat(accesses).as(what).anyMatch(a -> a.resource().equals("sql:*"));
        }
        boolean strongEndpoint = accesses.stream()
                .anyMatch(a -> a.resource().equals("sql:*") && (a.kind() == Access.READ || a.kind() == Access.WRITE));
        assertThat(c.accesses().granularity() == Granularity.ENDPOINT).as(what).isEqualTo(strongEndpoint);
        assertThat(c.accesses().rowsTouched()).as(what).isNotNull();
    }
}

package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import dev.frontrun.sync.fixtures.Tickets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The exploration relies on every execution of a schedule taking the same steps. A key made at random, which each
 * execution would see differently, ends it inconclusive (never with a verdict on fewer orders than the program has);
 * keys drawn from {@link RepeatableRandom} repeat, so the exploration runs exactly as with keys the test fixes.
 */
class RepeatableRandomTest {

    /** Two threads read then write the row the setup's key names: 4 traces (the two reads commute). */
    private static Exploration<String> readThenWrite(Supplier<String> keys) {
        return readThenWrite(keys, key -> "acct(" + key + ")");
    }

    private static Exploration<String> readThenWrite(Supplier<String> keys, Function<String, String> resource) {
        return Frontrun.explore(keys::get)
                .stopOnFirstFailure(false)
                .thread("a", key -> {
                    Frontrun.access(resource.apply(key), Access.READ);
                    Frontrun.access(resource.apply(key), Access.WRITE);
                })
                .thread("b", key -> {
                    Frontrun.access(resource.apply(key), Access.READ);
                    Frontrun.access(resource.apply(key), Access.WRITE);
                });
    }

    @Test
    void aKeyThatChangesFromExecutionToExecutionEndsTheExplorationInconclusive() {
        Result fixed = readThenWrite(() -> "fixed").run();
        Result random = readThenWrite(() -> UUID.randomUUID().toString()).run();

        assertThat(fixed.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(fixed.executions()).isEqualTo(4);
        assertThat(random.verdict()).as(random.explanation()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(random.failure().orElseThrow().kind()).isEqualTo(Failure.Kind.NONDETERMINISM);
        assertThat(random.explanation()).contains("did not repeat itself").containsPattern("thread '[ab]' at step \\d");
    }

    /** A map's key, on parallel workers too: the workers' executions end as the sequential one does. */
    @Test
    void aRandomMapKeyEndsItInconclusiveAlsoOnParallelWorkers() {
        Supplier<String> random = () -> UUID.randomUUID().toString();
        for (int workers : new int[] {1, 2}) {
            Result result = readThenWrite(random, key -> "cache[" + key + "]")
                    .parallelism(workers)
                    .run();

            assertThat(result.verdict())
                    .as("%d workers: %s", workers, result.explanation())
                    .isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(result.failure().orElseThrow().kind()).isEqualTo(Failure.Kind.NONDETERMINISM);
            assertThat(result.explanation()).contains("cache[");
        }
    }

    @Test
    void repeatableKeysExploreExactlyAsFixedOnes() {
        Set<String> keys = ConcurrentHashMap.newKeySet();
        Result repeatable = readThenWrite(() -> {
                    String key = RepeatableRandom.randomUUID().toString();
                    keys.add(key);
                    return key;
                })
                .run();

        assertThat(repeatable.verdict()).as(repeatable.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(repeatable.executions()).isEqualTo(4);
        assertThat(keys).as("one key in every execution's setup").hasSize(1);
    }

    /** Each thread's own keys repeat, and differ from the other thread's: a read of one never meets a write of the other. */
    @Test
    void eachThreadDrawsItsOwnSequence() {
        Set<List<String>> drawn = ConcurrentHashMap.newKeySet();
        Result result = Frontrun.explore(() -> new ConcurrentHashMap<String, String>())
                .stopOnFirstFailure(false)
                .thread("a", m -> {
                    String own = RepeatableRandom.randomUUID().toString();
                    m.put("a", own);
                    Frontrun.access("acct(" + own + ")", Access.WRITE);
                    Frontrun.access("shared", Access.WRITE);
                })
                .thread("b", m -> {
                    String own = RepeatableRandom.randomUUID().toString();
                    m.put("b", own);
                    Frontrun.access("acct(" + own + ")", Access.WRITE);
                    Frontrun.access("shared", Access.WRITE);
                })
                .invariant(m -> drawn.add(List.of(m.get("a"), m.get("b"))) || true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).as("only the shared write's two orders").isEqualTo(2);
        assertThat(drawn).hasSize(1);
        assertThat(drawn.iterator().next().get(0))
                .isNotEqualTo(drawn.iterator().next().get(1));
    }

    @Test
    void outsideAnExecutionTheKeysAreRandom() {
        assertThat(RepeatableRandom.nextUuid()).isEmpty();
        UUID one = RepeatableRandom.randomUUID();
        assertThat(one).isNotEqualTo(RepeatableRandom.randomUUID());
        assertThat(one.version()).isEqualTo(4);
    }

    /** A replay, a shard, another run of the test: the keys the exploration that found a failure met. */
    @Test
    void anotherExplorationDrawsTheSameKeys() {
        Set<String> first = ConcurrentHashMap.newKeySet();
        Set<String> second = ConcurrentHashMap.newKeySet();
        readThenWrite(() -> add(first, RepeatableRandom.randomUUID().toString()))
                .run();
        readThenWrite(() -> add(second, RepeatableRandom.randomUUID().toString()))
                .run();

        assertThat(first).hasSize(1);
        assertThat(second).isEqualTo(first);
        assertThat(UUID.fromString(first.iterator().next()).version()).isEqualTo(4);
    }

    /** An instrumented class's {@code UUID.randomUUID()} calls draw from the repeatable sequences. */
    @Test
    void instrumentedClassesKeysRepeat() {
        Set<String> keys = ConcurrentHashMap.newKeySet();
        Result result = readThenWrite(() -> add(keys, Tickets.newKey()))
                .instrument("dev.frontrun.sync.fixtures")
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(4);
        assertThat(keys).hasSize(1);
        assertThat(Tickets.newKey()).as("outside an exploration").isNotEqualTo(Tickets.newKey());
    }

    /** A method reference ({@code UUID::randomUUID}) too. */
    @Test
    void instrumentedMethodReferencesRepeat() {
        Set<String> keys = ConcurrentHashMap.newKeySet();
        Result result = readThenWrite(() -> add(keys, Tickets.newKeyByReference()))
                .instrument("dev.frontrun.sync.fixtures")
                .run();

        assertThat(result.executions()).as(result.explanation()).isEqualTo(4);
        assertThat(keys).hasSize(1);
        assertThat(Tickets.newKeyByReference()).isNotEqualTo(Tickets.newKeyByReference());
    }

    private static String add(Set<String> keys, String key) {
        keys.add(key);
        return key;
    }
}

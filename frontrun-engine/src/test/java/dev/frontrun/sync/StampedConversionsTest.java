package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.StampedConversions;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@code StampedLock} conversions are steps the scheduler models: whether a conversion succeeds is the real
 * lock's answer at that point of the schedule, every answer the schedules allow is explored, and who holds
 * the lock afterwards is known (a downgraded writer is a reader: no false deadlock when it lets go).
 */
class StampedConversionsTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    private static Result explore(BiConsumer<StampedConversions, String> body, Set<Map<String, String>> seen) {
        Result result = Frontrun.explore(StampedConversions::new)
                .instrument(FIXTURES)
                .sharedMemory(false)
                .thread("a", s -> body.accept(s, "a"))
                .thread("b", s -> body.accept(s, "b"))
                .invariant(s -> seen.add(s.how()) && false || s.value() == 2, "both increments count")
                .stopOnFirstFailure(false)
                .run();
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        return result;
    }

    /**
     * Per thread: read take (reads the lock), conversion (writes it), then the write release, or on failure the
     * read release (reads), the write take and its release. Enumerating every feasible schedule of the two (a
     * conversion succeeds only for the only reader) gives 8 traces, with all four answer pairs: the conversion is
     * reversed against the other's read take (an upgrade shuts readers out) and the writers against the read take.
     */
    @Test
    void aReadLockUpgradesOnlyWhenItIsTheOnlyReaderAndEveryAnswerIsExplored() {
        Set<Map<String, String>> seen = new HashSet<>();
        Result result = explore(StampedConversions::upgrade, seen);

        assertThat(result.executions()).isEqualTo(8);
        assertThat(seen)
                .containsExactlyInAnyOrder(
                        Map.of("a", "upgraded", "b", "upgraded"),
                        Map.of("a", "upgraded", "b", "fell back"),
                        Map.of("a", "fell back", "b", "upgraded"),
                        Map.of("a", "fell back", "b", "fell back"));
    }

    /** Write take, conversion to a read hold, read release: the other writer waits throughout, so 2 traces. */
    @Test
    void aDowngradedWriterIsAReaderThatLetsTheOtherWriterInWhenItUnlocks() {
        Set<Map<String, String>> seen = new HashSet<>();
        Result result = explore(StampedConversions::downgrade, seen);

        assertThat(result.executions()).isEqualTo(2);
        assertThat(seen)
                .containsExactlyInAnyOrder(Map.of("a", "saw 1", "b", "saw 2"), Map.of("a", "saw 2", "b", "saw 1"));
    }

    /**
     * Optimistic read (reads the lock), conversion (writes it; succeeds if the lock is free and nobody took the
     * write lock since the read), then the write release, or the write take and its release: 10 traces.
     */
    @Test
    void anOptimisticReadUpgradesOnlyIfNobodyWroteSince() {
        Set<Map<String, String>> seen = new HashSet<>();
        Result result = explore(StampedConversions::optimisticIncrement, seen);

        assertThat(result.executions()).isEqualTo(10);
        assertThat(seen)
                .containsExactlyInAnyOrder(
                        Map.of("a", "upgraded", "b", "upgraded"),
                        Map.of("a", "upgraded", "b", "fell back"),
                        Map.of("a", "fell back", "b", "upgraded"));
    }

    @Test
    void aWriteLockGivenBackWithoutItsStampLetsTheOtherWriterIn() {
        Set<Map<String, String>> seen = new HashSet<>();
        Result result = explore(StampedConversions::writeThenTryUnlock, seen);

        assertThat(seen).containsExactly(Map.of("a", "unlocked", "b", "unlocked"));
        assertThat(result.executions()).isEqualTo(2); // who takes the write lock first
    }
}

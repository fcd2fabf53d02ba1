package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.SharedMemory;
import org.junit.jupiter.api.Test;

/**
 * Shared memory in instrumented classes as resources: exact execution counts. Two threads that each
 * read then write one resource have 4 Mazurkiewicz traces (either serial order, and both reads first
 * with either write last); two threads that each only write it have 2; disjoint keys have 1.
 */
class SharedMemoryTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void aPlainFieldIncrementedByTwoThreadsIsALostUpdateInFourTraces() {
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", SharedMemory::increment)
                .thread("bob", SharedMemory::increment)
                .invariant(s -> s.value() == 2)
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @Test
    void aStaticFieldIsOneResourceToo() {
        Result result = Frontrun.explore(() -> {
                    SharedMemory.total = 0;
                    return new SharedMemory();
                })
                .instrument(FIXTURES)
                .thread("alice", s -> SharedMemory.incrementTotal())
                .thread("bob", s -> SharedMemory.incrementTotal())
                .invariant(s -> SharedMemory.total == 2)
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @Test
    void arrayElementsAreOneResourcePerElementKindCoarserThanPerCell() {
        // two different cells: no race, but the array was made by the setup, not by an explored thread, so it
        // has no name of its own and its int[] elements are one resource: the four orders are run
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.incrementCell(0))
                .thread("bob", s -> s.incrementCell(1))
                .invariant(s -> s.cell(0) == 1 && s.cell(1) == 1)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @Test
    void anAtomicIncrementIsOneWriteAndHolds() {
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", SharedMemory::incrementAtomically)
                .thread("bob", SharedMemory::incrementAtomically)
                .invariant(s -> s.atomic() == 2)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void anAtomicReadThenSetLosesAnUpdate() {
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", SharedMemory::getThenSet)
                .thread("bob", SharedMemory::getThenSet)
                .invariant(s -> s.atomic() == 2)
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @Test
    void aLongAdderIsOneResource() {
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", SharedMemory::add)
                .thread("bob", SharedMemory::add)
                .invariant(s -> s.sum() == 2)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void aCheckThenPutOnOneKeyOfAConcurrentHashMapPutsTwice() {
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.putIfMissing("k", "alice"))
                .thread("bob", s -> s.putIfMissing("k", "bob"))
                .invariant(s -> s.puts().size() == 1, "one put")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
    }

    /** The summary of a race in memory names what the threads conflicted on: the field with its class, the map's key. */
    @Test
    void theSummaryNamesTheConflictingFieldOrMapKey() {
        Result field = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", SharedMemory::increment)
                .thread("bob", SharedMemory::increment)
                .invariant(s -> s.value() == 2)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();
        Result map = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.putIfMissing("k", "alice"))
                .thread("bob", s -> s.putIfMissing("k", "bob"))
                .invariant(s -> s.puts().size() == 1, "one put")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(field.summary())
                .contains(
                        "conflicting accesses:",
                        "alice  read field:" + FIXTURES + ".SharedMemory.value",
                        "bob  write field:" + FIXTURES + ".SharedMemory.value");
        assertThat(map.summary())
                .contains(
                        "conflicting accesses:",
                        "bob  containsKey map:ConcurrentHashMap[String k]",
                        "alice  put map:ConcurrentHashMap[String k]");
    }

    @Test
    void checkThenPutOnDifferentKeysIsIndependent() {
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.putIfMissing("a", "alice"))
                .thread("bob", s -> s.putIfMissing("b", "bob"))
                .invariant(s -> s.puts().size() == 2)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void outsideAnExplorationInstrumentedCodeRunsAsWritten() {
        Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("t", SharedMemory::increment)
                .run();
        SharedMemory memory = new SharedMemory();
        memory.increment();
        memory.putIfMissing("k", "me");
        memory.incrementAtomically();
        assertThat(memory.value()).isEqualTo(1);
        assertThat(memory.puts()).containsExactly("me");
        assertThat(memory.atomic()).isEqualTo(1);
    }
}

package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.Box;
import dev.frontrun.sync.fixtures.EarlyInit;
import dev.frontrun.sync.fixtures.GeneratedAccessors;
import dev.frontrun.sync.fixtures.OwnObjects;
import dev.frontrun.sync.fixtures.SharedMemory;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * Shared memory per object: what an explored thread creates is its own resource, named the same in every
 * replay, so two threads each working on their own objects are independent (one execution), while an
 * object that existed before (a singleton) is one resource shared by both (two executions for two
 * writes). Every body also checks the value it computed, so the rewritten sites are seen to compute
 * what the code says.
 */
class ObjectResourcesTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    private static Result eachOnItsOwn(Callable<?> body, Object expected) {
        return Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> check(body, expected))
                .thread("bob", s -> check(body, expected))
                .stopOnFirstFailure(false)
                .run();
    }

    /** The step labels of one execution of the two threads (an invariant that never holds keeps its trace). */
    private static List<String> labels(Callable<?> body) {
        Result shown = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> body.call())
                .thread("bob", s -> body.call())
                .invariant(s -> false, "show the trace")
                .reproduceOnFailure(0)
                .checkAdvice(false)
                .reportDirectory(null)
                .run();
        return shown.trace().stream()
                .map(step -> step.threadName() + ": " + step.step().label())
                .toList();
    }

    private static void check(Callable<?> body, Object expected) throws Exception {
        Object actual = body.call();
        if (!expected.equals(actual)) {
            throw new AssertionError("computed " + actual + ", expected " + expected);
        }
    }

    @Test
    void twoThreadsEachWritingTheirOwnFreshObjectRunOnce() {
        Result result = eachOnItsOwn(() -> OwnObjects.box(1), 2);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
        assertThat(labels(() -> OwnObjects.box(1)))
                .contains(
                        "alice: write field:" + FIXTURES + ".Box.value@alice/Box#0",
                        "bob: write field:" + FIXTURES + ".Box.value@bob/Box#0");
    }

    @Test
    void anObjectAnUninstrumentedCallerCreatesIsNamedByItsOwnConstructor() {
        Result result = eachOnItsOwn(
                () -> {
                    Box box = new Box(); // this test class is not instrumented: Box's constructor names the box
                    box.set(3);
                    return box.get();
                },
                3);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void anObjectOfAnInstrumentedSubclassHasOneName() {
        Result result = eachOnItsOwn(() -> OwnObjects.labelledBox("x"), "x1");

        assertThat(result.executions()).isEqualTo(1);
        assertThat(labels(() -> OwnObjects.labelledBox("x")))
                .contains(
                        "alice: write field:" + FIXTURES + ".Box.value@alice/Labelled#0",
                        "alice: write field:" + FIXTURES + ".Box$Labelled.label@alice/Labelled#0");
    }

    @Test
    void bothWritingOneSingletonsFieldRunTwice() {
        Box singleton = new Box(); // made before the exploration: one resource for every thread
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> singleton.set(1))
                .thread("bob", s -> singleton.set(2))
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void aFreshObjectHandedToAnotherThreadIsRacedOnUnderItsCreatorsName() {
        // alice: write published, write box.value; bob: read published, and if he saw the box, write box.value:
        // bob before the publication (1 trace), or after it with the two writes in either order (2 traces)
        Result result = Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", s -> {
                    Box box = new Box();
                    s.publish(box);
                    box.set(1);
                })
                .thread("bob", s -> {
                    Box box = s.published();
                    if (box != null) {
                        box.set(2);
                    }
                })
                .invariant(s -> s.published().get() == 2, "bob's write is the last")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.executions()).isEqualTo(3);
        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.trace())
                .anyMatch(step -> step.step().label().equals("write field:" + FIXTURES + ".Box.value@alice/Box#0")
                        && step.threadName().equals("bob"));
    }

    @Test
    void eachThreadsOwnArrayCellsAreItsOwn() {
        Result result = eachOnItsOwn(() -> OwnObjects.array(5), 6L);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
        assertThat(labels(() -> OwnObjects.array(5)))
                .contains("alice: write array:alice/long[]#0[1]", "bob: read array:bob/long[]#0[0]");
    }

    @Test
    void theRowsOfAMultiDimensionalArrayAreNamedByKindCoarser() {
        // the outer array is each thread's own, its rows are not named: each thread writes then reads an int[]
        // cell; the writes conflict, and each write with the other's read: 4 traces
        Result result = eachOnItsOwn(() -> OwnObjects.grid(7), 7);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @Test
    void eachThreadsOwnConcurrentHashMapIsItsOwnEvenOnTheSameKey() {
        Result result = eachOnItsOwn(() -> OwnObjects.map("k"), 3);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
        assertThat(labels(() -> OwnObjects.map("k")))
                .contains(
                        "alice: put map:alice/ConcurrentHashMap#0[String k]", "bob: size map:bob/ConcurrentHashMap#0");
    }

    @Test
    void eachThreadsOwnAtomicsAreItsOwn() {
        // incrementAndGet(), compareAndSet(int, int), LongAdder.add(long): the atomic is reached under its arguments
        Result result = eachOnItsOwn(OwnObjects::atomics, 4L);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void anAtomicHiddenUnderTwoLongArgumentsIsNamedAfterItsClassCoarser() {
        // each thread: compareAndSet(long, long) writes atomic:AtomicLong, get() reads its own AtomicLong and
        // weakly the class: the two writes conflict, and each write with the other's read, so 4 traces
        Result result = eachOnItsOwn(OwnObjects::longCompareAndSet, 1L);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @Test
    void aWriteBeforeTheObjectHasANameIsClassWideAndOrderedWithTheNamedOnes() {
        // each thread: init() writes field:EarlyInit.value (no name yet), then set() and get() touch its own
        // object's value and weakly the class-wide one, which the other's init conflicts with: the first init
        // goes before the other thread's init, set or get (3 places for it) whichever thread's it is: 6 traces
        Result result = eachOnItsOwn(
                () -> {
                    EarlyInit early = new EarlyInit();
                    early.set(2);
                    return early.get();
                },
                2);

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(6);
        assertThat(labels(() -> new EarlyInit())).contains("alice: write field:" + FIXTURES + ".EarlyInit.value");
    }

    @Test
    void outsideAnExplorationTheRewrittenSitesComputeAsWritten() {
        eachOnItsOwn(() -> OwnObjects.box(1), 2);
        assertThat(OwnObjects.box(1)).isEqualTo(2);
        assertThat(OwnObjects.labelledBox("y")).isEqualTo("y1");
        assertThat(OwnObjects.array(5)).isEqualTo(6L);
        assertThat(OwnObjects.grid(7)).isEqualTo(7);
        assertThat(OwnObjects.map("k")).isEqualTo(3);
        assertThat(OwnObjects.atomics()).isEqualTo(4L);
        assertThat(OwnObjects.longCompareAndSet()).isEqualTo(1L);
    }

    @Test
    void classesFrameworksGenerateInTheApplicationsPackagesAreNotInstrumented() {
        // the application's own accessor writing the shared cell: two orders of the two writes
        Result own = eachOnItsOwn(() -> GeneratedAccessors.PlainAccessor.put(1), 1);
        assertThat(own.executions()).as(own.explanation()).isEqualTo(2);
        // the same code in classes named as Hibernate, Spring Data and Byte Buddy name what they generate: no steps
        // (Hibernate's access optimizer beside an entity, instrumented, turned 6 executions of a @Version race into 46)
        for (Callable<?> generated : List.<Callable<?>>of(
                () -> GeneratedAccessors.HibernateAccessOptimizer5value.put(1),
                () -> GeneratedAccessors.GeneratedAccessors_Accessor_k2m3.put(1),
                () -> GeneratedAccessors.ByteBuddy$AbCd.put(1))) {
            Result result = eachOnItsOwn(generated, 1);
            assertThat(result.executions()).as(result.explanation()).isEqualTo(1);
            assertThat(labels(generated)).isEmpty();
        }
    }
}

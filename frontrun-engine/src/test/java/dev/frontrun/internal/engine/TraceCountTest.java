package dev.frontrun.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.util.function.IntFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exact execution counts equal to the number of Mazurkiewicz traces of small programs. */
class TraceCountTest {

    private static Result explore(int threads, IntFunction<Runnable> body) {
        Exploration<Object> exploration = Frontrun.explore(Object::new).stopOnFirstFailure(false);
        for (int t = 0; t < threads; t++) {
            Runnable r = body.apply(t);
            exploration.thread("t" + t, s -> r.run());
        }
        return exploration.run();
    }

    @ParameterizedTest(name = "{0} threads writing one resource: {0}! executions")
    @ValueSource(ints = {2, 3, 4, 5})
    void nThreadsWritingOneResourceGiveNFactorial(int n) {
        Result result = explore(n, t -> () -> Frontrun.access("shared", Access.WRITE));

        assertThat(result.executions()).isEqualTo(factorial(n));
        assertThat(result.propertyHolds()).isTrue();
    }

    @ParameterizedTest(name = "2 threads writing r1..r{0} in order: 2^{0} executions")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void twoThreadsWritingNResourcesInOrderGiveTwoToTheN(int n) {
        Result result = explore(2, t -> () -> {
            for (int r = 1; r <= n; r++) {
                Frontrun.access("r" + r, Access.WRITE);
            }
        });

        assertThat(result.executions()).isEqualTo(1 << n);
        assertThat(result.exhausted()).isTrue();
    }

    @ParameterizedTest(name = "{0} threads on disjoint resources: 1 execution")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void threadsOnDisjointResourcesGiveOneExecution(int n) {
        Result result = explore(n, t -> () -> {
            for (int step = 0; step < 4; step++) {
                Frontrun.access("own-" + t + "-" + step, Access.WRITE);
            }
        });

        assertThat(result.executions()).isEqualTo(1);
        assertThat(result.propertyHolds()).isTrue();
    }

    @ParameterizedTest(name = "{0} threads only reading one resource: 1 execution")
    @ValueSource(ints = {2, 3, 4})
    void readersNeverConflict(int n) {
        Result result = explore(n, t -> () -> {
            Frontrun.access("shared", Access.READ);
            Frontrun.access("shared", Access.READ);
        });

        assertThat(result.executions()).isEqualTo(1);
    }

    @ParameterizedTest(name = "weak writes to one container by {0} threads: 1 execution")
    @ValueSource(ints = {2, 3})
    void weakAccessesAreMutuallyIndependentButConflictWithStrongOnes(int n) {
        Result weak = explore(n, t -> () -> {
            Frontrun.access("map", Access.WEAK_WRITE);
            Frontrun.access("map", Access.WEAK_READ);
        });
        assertThat(weak.executions()).isEqualTo(1);

        Result mixed = Frontrun.explore(Object::new)
                .stopOnFirstFailure(false)
                .thread("writer", s -> Frontrun.access("map", Access.WEAK_WRITE))
                .thread("reader", s -> Frontrun.access("map", Access.READ))
                .run();
        assertThat(mixed.executions()).isEqualTo(2);
    }

    @ParameterizedTest(name = "unrelated intermediate steps ({0} per thread) do not multiply the search")
    @ValueSource(ints = {1, 5, 20})
    void unrelatedIntermediateStepsDoNotExplodeTheSearch(int noise) {
        // each thread touches many private resources between its two shared writes
        Result result = explore(2, t -> () -> {
            Frontrun.access("shared-a", Access.WRITE);
            for (int i = 0; i < noise; i++) {
                Frontrun.access("private-" + t + "-" + i, Access.WRITE);
            }
            Frontrun.access("shared-b", Access.WRITE);
        });

        assertThat(result.executions()).isEqualTo(4);
    }

    private static int factorial(int n) {
        return n <= 1 ? 1 : n * factorial(n - 1);
    }
}

package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.sync.fixtures.CountingQueue;
import org.junit.jupiter.api.Test;

/**
 * A worker that chooses its own next step evaluates the other threads' conditions (a waiting
 * {@code take}: is the queue empty?) on its own thread. When that condition is the application's code
 * (a queue subclass counting its looks in a field), it runs as it would on the scheduler: no step of the
 * worker, so the trace and the executions do not depend on which thread happened to decide.
 */
class OwnChoiceTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void aConditionOfTheApplicationsOwnQueueIsNoStepOfTheThreadThatChooses() {
        for (int round = 0; round < 20; round++) {
            Result result = Frontrun.explore(CountingQueue::new)
                    .instrument(FIXTURES)
                    .thread("consumer", CountingQueue::take)
                    .thread("producer", s -> s.prepareAndPut("a"))
                    .invariant(s -> false, "shows the first execution's trace")
                    .reproduceOnFailure(0)
                    .reportDirectory(null)
                    .run();

            assertThat(result.executions()).isEqualTo(1);
            assertThat(result.trace())
                    .extracting(step -> step.threadName() + ": " + step.step().label())
                    .as(result.explanation())
                    .containsExactly(
                            "producer: write field:" + FIXTURES + ".CountingQueue.prepared",
                            "producer: put Counting",
                            "consumer: take Counting",
                            "consumer: write field:" + FIXTURES + ".CountingQueue.taken");
        }
    }
}

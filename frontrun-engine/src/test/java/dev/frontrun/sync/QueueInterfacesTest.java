package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.QueueViews;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A modelled queue reached through {@code Collection}, {@code Queue} or {@code Deque} (not only through
 * {@code BlockingQueue}): its non-blocking operations are steps too, so their order against another
 * thread's is explored — a look ({@code peek}, {@code size}) reads the queue, a change writes it.
 */
class QueueInterfacesTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void anAddThroughCollectionAndAPeekThroughQueueRunInBothOrders() {
        Set<String> seen = new HashSet<>();
        Result result = Frontrun.explore(QueueViews::new)
                .instrument(FIXTURES)
                .thread("adder", s -> s.addThroughCollection("a"))
                .thread("peeker", QueueViews::peek)
                .invariant(s -> seen.add(String.valueOf(s.peeked())) || true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(seen).containsExactlyInAnyOrder("null", "a");
    }

    @Test
    void aPeekThatMustSeeTheElementFailsWhenItRunsFirst() {
        Result result = Frontrun.explore(QueueViews::new)
                .instrument(FIXTURES)
                .thread("adder", s -> s.addThroughCollection("a"))
                .thread("peeker", QueueViews::peek)
                .invariant(s -> "a".equals(s.peeked()), "the peek saw the element")
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduced()).isEqualTo(10);
    }

    @Test
    void twoLooksCommute() {
        Result result = Frontrun.explore(QueueViews::new)
                .instrument(FIXTURES)
                .thread("peeker", QueueViews::peek)
                .thread("counter", QueueViews::size)
                .invariant(s -> s.peeked() == null && "0".equals(s.counted()), "both saw the queue empty")
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void anAddFirstAndAPollLastThroughDequeRunInBothOrders() {
        Set<String> seen = new HashSet<>();
        Result result = Frontrun.explore(QueueViews::new)
                .instrument(FIXTURES)
                .thread("adder", s -> s.addFirst("a"))
                .thread("poller", QueueViews::pollLast)
                .invariant(s -> seen.add(String.valueOf(s.polled())) || true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(seen).containsExactlyInAnyOrder("null", "a");
    }
}

package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * An execution that ends early (a thread threw, a deadlock) leaves other threads' next steps
 * unrun; the orders in which those steps come first are explored too, so "exhausted" is never
 * claimed while a thread never got to run.
 */
class EarlyEndingExplorationTest {

    @Test
    void aThreadThatNeverRanBecauseAnotherFailedFirstStillGetsToGoFirst() {
        Set<String> firstWriters = ConcurrentHashMap.newKeySet();
        Result result = Frontrun.explore(() -> new String[1])
                .thread("failing", s -> {
                    Frontrun.access("x", Access.WRITE);
                    if (s[0] == null) {
                        s[0] = "failing";
                    }
                    firstWriters.add(s[0]);
                    throw new IllegalStateException("fails after its write");
                })
                .thread("quiet", s -> {
                    Frontrun.access("x", Access.WRITE);
                    if (s[0] == null) {
                        s[0] = "quiet";
                    }
                })
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.exhausted()).isTrue();
        assertThat(result.executions())
                .as("quiet's write before failing's is an order of its own")
                .isEqualTo(2);
        assertThat(firstWriters).containsExactlyInAnyOrder("failing", "quiet");
    }
}

package dev.frontrun.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.spring.Requests;
import jakarta.servlet.ServletException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.orm.ObjectOptimisticLockingFailureException;

/**
 * A request failed by an answer a retry gets past is hinted with the narrowest declaration that accepts it: the
 * Spring exception on its cause chain that means "retry", not MockMvc's {@code ServletException} around it (which
 * would accept every unhandled failure). Pasted into the test, that declaration makes the losing request told.
 */
class RetryHintTest extends RaceAppTestSupport {

    private Exploration<Object> twoRequests(
            String path, IntSupplier stored, AtomicInteger toldExecutions, Class<? extends Throwable> toldWith) {
        return races.explore()
                .thread("request-1", Requests.perform(mvc, post(path)))
                .thread("request-2", Requests.perform(mvc, post(path)))
                .invariant(
                        (state, outcomes) -> {
                            if (!outcomes.told().isEmpty()) {
                                toldExecutions.incrementAndGet();
                                assertThat(outcomes.told()).allMatch(told -> told.threw(toldWith));
                            }
                            return outcomes.storedOrTold(() -> stored.getAsInt() == 2);
                        },
                        "both stored, or one told")
                .reproduceOnFailure(0)
                .checkAdvice(false);
    }

    private static Failure.ThreadThrew threw(Result result) {
        assertThat(result.failure()).as(result.explanation()).get().isInstanceOf(Failure.ThreadThrew.class);
        Failure.ThreadThrew threw = (Failure.ThreadThrew) result.failure().orElseThrow();
        assertThat(threw.exception())
                .as("MockMvc rethrows what the application did not handle")
                .isInstanceOf(ServletException.class);
        return threw;
    }

    @Test
    void aSerializationFailureIsHintedWithSpringsLockFailureWhichPastedTellsTheLoser() {
        Result failing = twoRequests(
                        "/counters/1/increment",
                        () -> counter(1),
                        new AtomicInteger(),
                        CannotAcquireLockException.class)
                .isolation(Isolation.REPEATABLE_READ)
                .run();

        Failure.ThreadThrew threw = threw(failing);
        assertThat(failing.summary().replaceAll("\n {6,}", " "))
                .contains("  hint: " + threw.threadName() + " got PostgreSQL's serialization"
                        + " failure (40001), which the server may answer any transaction here: if the application retries it or"
                        + " tells the caller, declare that answer with .expect(CannotAcquireLockException.class)");

        AtomicInteger told = new AtomicInteger();
        Result declared = twoRequests("/counters/1/increment", () -> counter(1), told, CannotAcquireLockException.class)
                .isolation(Isolation.REPEATABLE_READ)
                .expect(CannotAcquireLockException.class)
                .run();

        assertThat(declared.verdict()).as(declared.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(told).as("some interleaving told a request with it").hasPositiveValue();
        assertThat(counter(1)).isZero();
    }

    @Test
    void anOptimisticLockFailureIsHintedWithItsSpringExceptionWhichPastedTellsTheLoser() {
        Result failing = twoRequests(
                        "/versioned-counters/1/increment-once",
                        () -> versionedCounter(1),
                        new AtomicInteger(),
                        ObjectOptimisticLockingFailureException.class)
                .run();

        Failure.ThreadThrew threw = threw(failing);
        assertThat(failing.summary().replaceAll("\n {6,}", " "))
                .contains("  hint: " + threw.threadName() + " got an optimistic-lock failure (the"
                        + " row changed since it was read): if the application retries it or tells the caller, declare that"
                        + " answer with .expect(ObjectOptimisticLockingFailureException.class)");

        AtomicInteger told = new AtomicInteger();
        Result declared = twoRequests(
                        "/versioned-counters/1/increment-once",
                        () -> versionedCounter(1),
                        told,
                        ObjectOptimisticLockingFailureException.class)
                .expect(ObjectOptimisticLockingFailureException.class)
                .run();

        assertThat(declared.verdict()).as(declared.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(told).as("some interleaving told a request with it").hasPositiveValue();
        assertThat(versionedCounter(1)).isZero();
    }
}

package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import dev.frontrun.Outcomes;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.spi.SchedulingPoints;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.ResultActions;

/**
 * MockMvc requests as thread bodies that tell Frontrun the HTTP status they were answered with and
 * their {@link MvcResult}, so invariants read them from the {@link dev.frontrun.Outcomes}
 * ({@link #result(Outcomes.ThreadOutcome)}) and {@code expectStatus(409)} can declare a status a
 * legitimate answer. An exception the application did not handle (MockMvc rethrows it) answers
 * 500, as the servlet container would, and is rethrown for {@code expect(...)} to match:
 * <pre>{@code
 * races.explore()
 *     .thread("edit", Requests.perform(mvc, post("/owners/1/edit").param("city", "Verona")))
 *     .thread("rename", Requests.perform(mvc, post("/owners/1/pets/1/edit").param("name", "Leonardo")))
 *     .expect(ObjectOptimisticLockingFailureException.class)
 *     .invariant((s, outcomes) -> outcomes.storedOrTold(this::bothChangesStored))
 *     .run();
 * }</pre>
 */
public final class Requests {

    private Requests() {}

    /** A thread body performing {@code request} through {@code mvc}. */
    public static ThrowingRunnable perform(MockMvc mvc, RequestBuilder request) {
        Objects.requireNonNull(mvc, "mvc");
        Objects.requireNonNull(request, "request");
        return answered(() -> mvc.perform(request));
    }

    /** A thread body running {@code request}, code that performs a MockMvc request (a client of the app's routes). */
    public static ThrowingRunnable answered(Callable<ResultActions> request) {
        return retryingOn().answered(request);
    }

    /**
     * Request bodies that send their request again while it is answered with one of {@code statuses}. The client
     * that reloads the form and submits it again after a 409, at most three times in all
     * ({@link Retrying#attempts(int)}). The thread's outcome is the last answer. An answer the application tells its
     * caller to retry is thus accepted as a retry, not as an outcome:
     * {@code .thread("edit", Requests.retryingOn(409).perform(mvc, post("/owners/1/edit").param("city", "Verona")))}.
     * An exception the application did not handle answers 500, so {@code retryingOn(500)} retries that too.
     */
    public static Retrying retryingOn(int... statuses) {
        return new Retrying(statuses, Retrying.DEFAULT_ATTEMPTS);
    }

    /** Request bodies that retry some answers; see {@link #retryingOn(int...)}. */
    public static final class Retrying {

        static final int DEFAULT_ATTEMPTS = 3;

        private final int[] statuses;
        private final int attempts;

        private Retrying(int[] statuses, int attempts) {
            this.statuses = statuses.clone();
            this.attempts = attempts;
        }

        /** At most {@code attempts} sends in all (the first included); the answer of the last stands. */
        public Retrying attempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
            }
            return new Retrying(statuses, attempts);
        }

        /** A thread body performing {@code request} through {@code mvc}, again while its answer is retried. */
        public ThrowingRunnable perform(MockMvc mvc, RequestBuilder request) {
            Objects.requireNonNull(mvc, "mvc");
            Objects.requireNonNull(request, "request");
            return answered(() -> mvc.perform(request));
        }

        /** A thread body running {@code request}, code that performs a MockMvc request, again while its answer is retried. */
        public ThrowingRunnable answered(Callable<ResultActions> request) {
            Objects.requireNonNull(request, "request");
            return () -> {
                for (int attempt = 1; ; attempt++) {
                    MvcResult result;
                    try {
                        result = request.call().andReturn();
                    } catch (Exception unhandled) {
                        if (SchedulingPoints.isAbort(unhandled)) { // Frontrun unwinding the request, not an answer
                            throw unhandled;
                        }
                        if (attempt < attempts && retried(500)) {
                            continue;
                        }
                        Frontrun.status(500);
                        throw unhandled;
                    }
                    int status = result.getResponse().getStatus();
                    if (attempt < attempts && retried(status)) {
                        continue;
                    }
                    Frontrun.status(status);
                    Frontrun.response(new AnsweredRequest(result));
                    return;
                }
            };
        }

        private boolean retried(int status) {
            for (int retried : statuses) {
                if (retried == status) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The {@link MvcResult} of {@code outcome}'s request, if it was answered (not if the application threw). */
    public static Optional<MvcResult> result(Outcomes.ThreadOutcome outcome) {
        return outcome.response(MvcResult.class);
    }
}

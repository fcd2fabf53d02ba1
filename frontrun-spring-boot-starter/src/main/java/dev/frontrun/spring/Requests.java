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
        Objects.requireNonNull(request, "request");
        return () -> {
            MvcResult result;
            try {
                result = request.call().andReturn();
            } catch (Exception unhandled) {
                if (!SchedulingPoints.isAbort(unhandled)) { // Frontrun unwinding the request, not an answer
                    Frontrun.status(500);
                }
                throw unhandled;
            }
            Frontrun.status(result.getResponse().getStatus());
            Frontrun.response(result);
        };
    }

    /** The {@link MvcResult} of {@code outcome}'s request, if it was answered (not if the application threw). */
    public static Optional<MvcResult> result(Outcomes.ThreadOutcome outcome) {
        return outcome.response(MvcResult.class);
    }
}

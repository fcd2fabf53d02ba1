package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spring.Requests;
import dev.frontrun.spring.app.CouponService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A race test with no invariant written: the starter checks that every outcome is one a serial order of the threads
 * gives (the rows they wrote, and each request's answer). An invariant given replaces that check;
 * {@code serializable()} and an invariant together check both.
 */
class SerialOrderTest extends RaceAppTestSupport {

    private static final String CHECKED = "every outcome is one a serial order of [request-1, request-2] gives";

    @Autowired
    CouponService coupons;

    private Exploration<Object> twoRequests(String path) {
        return races.explore()
                .thread("request-1", Requests.perform(mvc, post(path)))
                .thread("request-2", Requests.perform(mvc, post(path)));
    }

    private static Failure.NotSerializable notSerializable(Result result) {
        assertThat(result.failure()).as(result.summary()).get().isInstanceOf(Failure.NotSerializable.class);
        return (Failure.NotSerializable) result.failure().orElseThrow();
    }

    @Test
    void aLostUpdateIsFoundWithNoInvariant() {
        Result result = twoRequests("/counters/1/increment").run();

        assertThat(result).foundRace();
        assertThat(result.executions()).as(result.summary()).isEqualTo(2);
        assertThat(result.timings().serial().runs()).as("the two serial orders").isEqualTo(2);
        assertThat(result.summary()).contains(CHECKED);
        assertThat(notSerializable(result).differences()).as(result.summary()).anySatisfy(difference -> {
            assertThat(difference.table()).isEqualTo("counters");
            assertThat(difference.column()).isEqualTo("n");
            assertThat(difference.interleaved()).isEqualTo("1");
            assertThat(difference.serially()).isEqualTo("2");
        });
        assertThat(counter(1)).as("database restored").isZero();
    }

    @Test
    void theAtomicIncrementHoldsWithNoInvariantAndSaysWhatWasChecked() {
        Result result = twoRequests("/counters/2/increment-atomic").run();

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isEqualTo(2);
        assertThat(result.summary()).contains(CHECKED);
    }

    @Test
    void anInvariantGivenReplacesTheSerialCheck() {
        Result result = twoRequests("/counters/1/increment")
                .invariant(() -> counter(1) >= 1, "at least one increment stored")
                .run();

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.timings().serial().runs()).as("no serial order run").isZero();
        assertThat(result.summary()).doesNotContain("serial order");
    }

    @Test
    void serializableAndAnInvariantCheckBoth() {
        Result racy = twoRequests("/counters/1/increment")
                .serializable()
                .invariant(() -> counter(1) >= 1, "at least one increment stored")
                .run();
        Result atomic = twoRequests("/counters/2/increment-atomic")
                .serializable()
                .invariant(() -> counter(2) == 3, "three increments stored (wrong)")
                .checkAdvice(false)
                .run();

        assertThat(notSerializable(racy).nearestOrder()).hasSize(2);
        assertThat(atomic.failure())
                .as(atomic.summary())
                .get()
                .extracting(Failure::kind)
                .isIn(Failure.Kind.INVARIANT_VIOLATED);
    }

    /** No row is written: the coupon lives in memory. Both requests answered 200, which no serial order gives. */
    @Test
    void theAnswersArePartOfTheOutcome() {
        Result result = races.explore()
                .hook(new ExplorationHook() {
                    @Override
                    public void beforeExecution(ExecutionContext execution) {
                        coupons.forgetAll();
                    }
                })
                .thread(
                        "alice",
                        Requests.perform(mvc, post("/coupons/WELCOME/redeem").param("who", "alice")))
                .thread(
                        "bob",
                        Requests.perform(mvc, post("/coupons/WELCOME/redeem").param("who", "bob")))
                .run();

        assertThat(result).foundRace();
        assertThat(notSerializable(result).differences()).as(result.summary()).anySatisfy(difference -> {
            assertThat(difference.thread()).isIn("alice", "bob");
            assertThat(difference.interleaved()).contains("200");
            assertThat(difference.serially()).contains("409");
        });
    }

    /** The registration that takes a lock first tells the loser 409, as the second of a serial order is told. */
    @Test
    void aDeclaredAnswerSomeSerialOrderGivesHolds() {
        Result result = races.explore()
                .thread(
                        "request-1",
                        Requests.perform(mvc, post("/members/locked").param("name", "bob")))
                .thread(
                        "request-2",
                        Requests.perform(mvc, post("/members/locked").param("name", "bob")))
                .expectStatus(409)
                .run();

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isEqualTo(4);
    }

    /** The loser of two versioned writes is told 409; the serial orders store both: no serial order answers 409. */
    @Test
    void aConflictNoSerialOrderGivesIsARaceUntilTheRequestIsSentAgain() {
        String path = "/versioned-counters/1/increment-or-conflict";
        Result told = twoRequests(path).expectStatus(409).run();
        Result retried = races.explore()
                .thread("request-1", Requests.retryingOn(409).perform(mvc, post(path)))
                .thread("request-2", Requests.retryingOn(409).perform(mvc, post(path)))
                .run();

        assertThat(told).foundRace();
        assertThat(notSerializable(told).differences())
                .as(told.summary())
                .anySatisfy(difference -> assertThat(difference.interleaved()).contains("409"));
        assertThat(retried).hasNoRace().isExhausted();
        assertThat(versionedCounter(1)).isZero();
    }

    /** A read between the two reads of another request: the rows are serial, the body is not, and is compared when asked. */
    @Test
    void responseBodiesAreComparedWhenAsked() {
        Exploration<Object> readAndWrite = races.explore()
                .thread("reader", Requests.perform(mvc, get("/counters/2/read-twice")))
                .thread("writer", Requests.perform(mvc, post("/counters/2/increment-atomic")));

        Result rowsAndStatuses = readAndWrite.run();
        Result withBodies = readAndWrite
                .serializable(Exploration.Observation.database().responses(true))
                .run();

        assertThat(rowsAndStatuses).hasNoRace().isExhausted();
        assertThat(withBodies).foundRace();
        assertThat(notSerializable(withBodies).differences())
                .as(withBodies.summary())
                .anySatisfy(difference -> {
                    assertThat(difference.thread()).isEqualTo("reader");
                    assertThat(difference.interleaved()).contains("0,1");
                });
    }
}

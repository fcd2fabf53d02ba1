package dev.frontrun.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spring.Requests;
import dev.frontrun.spring.app.CouponService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Two requests that race only on the application's memory — a {@code ConcurrentHashMap} in a service, no
 * SQL anywhere — are explored like any other race: the map's key is the resource they conflict on.
 */
class MemoryOnlyRaceTest extends RaceAppTestSupport {

    @Autowired
    CouponService coupons;

    /** The service's map is state too: every execution starts with no coupon redeemed. */
    private ExplorationHook freshCoupons() {
        return new ExplorationHook() {
            @Override
            public void beforeExecution(ExecutionContext execution) {
                coupons.forgetAll();
            }
        };
    }

    private static long redeemedAnswers(Outcomes outcomes) {
        return outcomes.all().stream()
                .filter(o -> o.status() != null && o.status() == 200)
                .count();
    }

    @Test
    void twoRequestsRedeemingOneCouponInMemoryAreARaceNamedByItsKey() {
        Result result = races.explore()
                .hook(freshCoupons())
                .thread(
                        "alice",
                        Requests.perform(mvc, post("/coupons/WELCOME/redeem").param("who", "alice")))
                .thread(
                        "bob",
                        Requests.perform(mvc, post("/coupons/WELCOME/redeem").param("who", "bob")))
                .expectStatus(409)
                .invariant((state, outcomes) -> redeemedAnswers(outcomes) == 1, "the coupon is redeemed once")
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILS);
        // DPOR: alice alone first (bob is told 409), then bob's containsKey before alice's put: both redeem
        assertThat(result.executions()).as(result.summary()).isEqualTo(2);
        assertThat(result.summary())
                .as("the conflicting accesses: the map's key")
                .contains(
                        "conflicting accesses:",
                        "containsKey map:ConcurrentHashMap[String WELCOME]",
                        "put map:ConcurrentHashMap[String WELCOME]");
    }
}

package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.spring.Requests;
import java.io.UnsupportedEncodingException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.dao.ConcurrencyFailureException;

/**
 * The gift card of the benchmark ({@code GiftCardRace}), two requests: a spend and a top-up of one card at REPEATABLE
 * READ, each saving a ledger entry with an {@code IDENTITY} id; the facade retries a lost update, or the lost update is
 * an expected answer. The ledger always adds up to the balance, and the exact counts pin what the explorations cost.
 */
class GiftCardRaceTest extends RaceAppTestSupport {

    private ThrowingRunnable request(String action, int amount) {
        return Requests.perform(mvc, post("/gift-cards/1/" + action).param("amount", Integer.toString(amount)));
    }

    private boolean ledgerAddsUp() {
        int balance = jdbc.queryForObject("SELECT balance FROM gift_cards WHERE id = 1", Integer.class);
        int entries = jdbc.queryForObject("SELECT coalesce(sum(amount), 0) FROM ledger_entries", Integer.class);
        return balance == 30 + entries;
    }

    @Test
    void aSpendAndATopUpRetriedOnALostUpdateHoldInTenExecutions() {
        AtomicInteger retried = new AtomicInteger();

        Result result = races.explore()
                .thread("spend", request("spend", 10))
                .thread("top-up", request("top-up", 5))
                .invariant(
                        (s, outcomes) -> {
                            if (outcomes.all().stream().anyMatch(GiftCardRaceTest::retried)) {
                                retried.incrementAndGet();
                            }
                            return ledgerAddsUp()
                                    && jdbc.queryForObject("SELECT balance FROM gift_cards WHERE id = 1", Integer.class)
                                            == 25;
                        },
                        "both movements kept, and the ledger adds up")
                .run();

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isEqualTo(10);
        assertThat(retried).as("executions in which a lost update was retried").hasPositiveValue();
    }

    @Test
    void aSpendAndATopUpTellingTheLoserHoldInTenExecutionsWhenTheFailureIsExpected() {
        Result result = races.explore()
                .thread("spend", request("spend-once", 10))
                .thread("top-up", request("top-up-once", 5))
                .expect(ConcurrencyFailureException.class)
                .invariant(this::ledgerAddsUp, "the ledger adds up to the balance")
                .run();

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isEqualTo(10);
    }

    private static boolean retried(Outcomes.ThreadOutcome outcome) {
        return Requests.result(outcome)
                .map(r -> {
                    try {
                        return r.getResponse().getContentAsString().contains("retry");
                    } catch (UnsupportedEncodingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .orElse(false);
    }
}

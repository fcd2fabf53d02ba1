package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.spring.app.Tally;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rows in Hibernate's second-level cache are read again after every restore: each execution, and the application
 * after the exploration, see the rows as they are, not as the last execution left them (which made the second
 * exploration fail).
 */
class SecondLevelCacheTest extends RaceAppTestSupport {

    @Autowired
    private EntityManager entities;

    @Autowired
    private TransactionTemplate transactions;

    @Test
    void everyExplorationAndTheApplicationAfterwardsReadTheRowsAsTheyAre() {
        tally(1); // in the cache from here on
        for (int exploration = 1; exploration <= 2; exploration++) {
            Result result = races.explore()
                    .thread("one", () -> increment(1))
                    .thread("two", () -> increment(2))
                    .invariant(() -> jdbc.queryForObject("SELECT sum(n) FROM tallies", Integer.class) == 2)
                    .run();

            assertThat(result).hasNoRace().isExhausted();
            org.assertj.core.api.Assertions.assertThat(tally(1))
                    .as("after exploration %d", exploration)
                    .isZero();
        }
    }

    private void increment(long id) {
        transactions.executeWithoutResult(
                status -> entities.find(Tally.class, id).increment());
    }

    private int tally(long id) {
        return transactions.execute(status -> entities.find(Tally.class, id).getN());
    }
}

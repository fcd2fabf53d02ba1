package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.spring.app.Voucher;
import dev.frontrun.spring.app.VoucherRepository;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Keys Hibernate makes at random: every execution makes the same ones (each thread its own), so the exploration
 * explores one program and says so; with keys that changed from execution to execution it could give no verdict.
 */
class RandomIdentifiersTest extends RaceAppTestSupport {

    @Autowired
    private VoucherRepository vouchers;

    @Test
    void everyExecutionMakesTheSameKeysAndTheExplorationIsExhausted() {
        Set<List<UUID>> keysSeen = ConcurrentHashMap.newKeySet();
        Result result = races.explore()
                .thread("issue-1", () -> issueThenCount("one"))
                .thread("issue-2", () -> issueThenCount("two"))
                .invariant(() -> {
                    keysSeen.add(jdbc.queryForList("SELECT id FROM vouchers ORDER BY code", UUID.class));
                    return true;
                })
                .run();

        assertThat(result).hasNoRace().isExhausted();
        org.assertj.core.api.Assertions.assertThat(result.executions())
                .as(result.explanation())
                .isGreaterThan(1);
        org.assertj.core.api.Assertions.assertThat(keysSeen)
                .as("the same two keys in every execution")
                .hasSize(1);
        org.assertj.core.api.Assertions.assertThat(keysSeen.iterator().next())
                .hasSize(2)
                .doesNotHaveDuplicates();
    }

    /** Issues a voucher, then counts them: the count sees the other thread's voucher or not. */
    private void issueThenCount(String code) {
        vouchers.save(new Voucher(code));
        vouchers.count();
    }
}

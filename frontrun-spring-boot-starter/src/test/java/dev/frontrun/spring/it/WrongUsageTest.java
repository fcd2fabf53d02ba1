package dev.frontrun.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.spring.Requests;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.transaction.annotation.Transactional;

/** Mistakes that would make a verdict meaningless end in an error that says how to fix them. */
class WrongUsageTest extends RaceAppTestSupport {

    /** Explored threads cannot see a test transaction's data, and its rollback would not undo theirs. */
    @Test
    @Transactional
    void exploringInsideATestManagedTransactionIsRefused() {
        assertThatThrownBy(() -> races.explore()
                        .thread("request-1", () -> postOk("/counters/1/increment"))
                        .thread("request-2", () -> postOk("/counters/1/increment"))
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("test-managed transaction")
                .hasMessageContaining("Remove @Transactional from the test");
    }

    /** A DataSource built by hand bypasses the proxy: the exploration must not come back green. */
    @Test
    void aDataSourceOutsideTheContextIsReportedNotSilentlyGreen() {
        assertThatThrownBy(() -> races.explore()
                        .thread("by-hand-1", this::incrementThroughAHandMadeDataSource)
                        .thread("by-hand-2", this::incrementThroughAHandMadeDataSource)
                        .invariant(() -> counter(1) == 2)
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Frontrun saw no SQL")
                .hasMessageContaining("let Spring create the DataSource")
                .hasMessageContaining("FrontrunDataSource.wrap");
        assertThat(counter(1)).as("restored even so").isZero();
    }

    /** Requests that never reach the code under test prove nothing: the error says they were turned away, and why. */
    @Test
    void requestsRejectedBeforeTheDatabaseAreSaidToBe() {
        assertThatThrownBy(() -> races.explore()
                        .thread("request-1", Requests.perform(mvc, post("/no/such/route")))
                        .thread("request-2", Requests.perform(mvc, post("/no/such/route")))
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Frontrun saw no SQL: every request was rejected before reaching the database")
                .hasMessageContaining("request-1 got 404, request-2 got 404")
                .hasMessageContaining("404 that no handler has this route");
    }

    private void incrementThroughAHandMadeDataSource() throws Exception {
        PGSimpleDataSource handMade = new PGSimpleDataSource();
        handMade.setURL(database().jdbcUrl());
        handMade.setUser(database().user());
        handMade.setPassword(database().password());
        try (Connection c = handMade.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE counters SET n = n + 1 WHERE id = 1")) {
            update.executeUpdate();
        }
    }
}

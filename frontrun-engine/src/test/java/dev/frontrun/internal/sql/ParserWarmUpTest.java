package dev.frontrun.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParserWarmUpTest {

    /** A warm-up that fell back to the coarse levels would warm the fallback, not the path real statements take. */
    @Test
    void everyWarmUpStatementIsParsedAndPlannedDownToItsRows() {
        List<StatementAccesses> warmed = ParserWarmUp.classifyAll();

        assertThat(warmed)
                .hasSize(5)
                .allSatisfy(accesses -> assertThat(accesses.accesses())
                        .extracting(ResourceAccess::toString)
                        .isNotEmpty()
                        .noneMatch(a -> a.equals("READ sql:*") || a.equals("WRITE sql:*"))
                        .anyMatch(a -> a.contains("sql:warm_")));
        assertThat(warmed)
                .filteredOn(accesses ->
                        accesses.accesses().stream().anyMatch(a -> a.toString().endsWith(":(1)")))
                .as("a join, an insert's foreign key, an update and a delete: rows found by their key")
                .hasSize(4);
    }
}

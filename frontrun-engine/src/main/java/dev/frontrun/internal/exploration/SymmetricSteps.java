package dev.frontrun.internal.exploration;

import dev.frontrun.Step;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.UUID;

/**
 * What two threads declared to run one body must share, step by step, when each runs first from the same start. A
 * statement's text, its parameters (clock readings and UUIDs aside: each thread draws its own) and what it reads
 * and writes; any other step's accesses.
 */
final class SymmetricSteps {

    private SymmetricSteps() {}

    static Object identity(Step step) {
        if (!(step.detail() instanceof SqlStep sql)) {
            return step.accesses();
        }
        if (sql.isBoundary()) {
            return List.of(sql.op(), step.accesses());
        }
        SqlFacts facts = sql.facts();
        return List.of(
                String.valueOf(facts.sql()), withoutClockReadings(facts.parameters()), facts.reads(), facts.writes());
    }

    private static List<Object> withoutClockReadings(List<Object> parameters) {
        List<Object> out = new ArrayList<>(parameters.size());
        for (Object p : parameters) {
            if (p instanceof TemporalAccessor || p instanceof Date) {
                out.add("a clock reading");
            } else if (p instanceof UUID) {
                out.add("a generated id"); // drawn per thread: the same body draws another in each thread
            } else if (p instanceof byte[] bytes) {
                out.add(Arrays.toString(bytes));
            } else {
                out.add(String.valueOf(p));
            }
        }
        return out;
    }
}

package dev.frontrun.internal.exploration;

import dev.frontrun.ResourceAccess;
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
 * statement's text, its parameters (clock readings and UUIDs aside: each thread draws its own) and what it touches,
 * a key generated for the thread's own insert named alike; any other step's accesses.
 */
final class SymmetricSteps {

    private SymmetricSteps() {}

    /** What of {@code step}, taken by thread {@code thread}, another member's step must equal. */
    static Object identity(int thread, Step step) {
        String own = "@t" + thread + "."; // the alias of a key the database generates for this thread's insert
        List<String> touched = new ArrayList<>();
        for (ResourceAccess access : step.accesses()) {
            touched.add(access.kind() + " " + access.resource().replace(own, "@own."));
        }
        if (!(step.detail() instanceof SqlStep sql)) {
            return touched;
        }
        if (sql.isBoundary()) {
            return List.of(String.valueOf(sql.op()), touched);
        }
        SqlFacts facts = sql.facts();
        return List.of(String.valueOf(facts.sql()), withoutClockReadings(facts.parameters()), touched);
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

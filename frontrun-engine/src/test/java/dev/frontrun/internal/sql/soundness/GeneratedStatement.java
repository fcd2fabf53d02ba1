package dev.frontrun.internal.sql.soundness;

import java.util.Arrays;
import java.util.List;

/**
 * A statement of the property tests: its text and parameters, and the ground truth if known
 * ({@code null} for random mutations, whose effect nobody computed). {@code broken} marks text that
 * PostgreSQL certainly rejects and the classifier must treat as touching everything.
 */
public record GeneratedStatement(String origin, String sql, List<Object> params, Footprint truth, boolean broken) {

    @Override
    public String toString() {
        return origin + ": " + sql.replace('\n', ' ') + " " + Arrays.deepToString(params.toArray())
                + (truth == null ? "" : " truth=" + truth);
    }
}

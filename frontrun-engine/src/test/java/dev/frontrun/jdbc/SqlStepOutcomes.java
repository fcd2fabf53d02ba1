package dev.frontrun.jdbc;

/** Test support: outcome holders for synthetic {@link SqlStep}s (the setter is the proxy's, package-private). */
public final class SqlStepOutcomes {

    private SqlStepOutcomes() {
    }

    public static SqlStep.OutcomeHolder holder(SqlStep.Outcome outcome, String sqlState, String message) {
        SqlStep.OutcomeHolder holder = new SqlStep.OutcomeHolder();
        holder.set(outcome, sqlState, message);
        return holder;
    }
}

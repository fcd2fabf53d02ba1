package dev.frontrun.anomaly;

import java.util.List;

/**
 * A database transaction of the trace, for reports.
 *
 * @param name            e.g. {@code alice/tx2} (plus a Spring transaction name where one was known)
 * @param thread          the thread that ran it
 * @param outcome         {@code committed}, {@code rolled back}, {@code aborted: …}, or {@code open}
 * @param committed       whether it committed (only committed transactions install versions)
 * @param isolation       the isolation level in force
 * @param isolationSource how the level was determined
 * @param positions       the trace positions of its steps
 * @param autocommit      whether it was a single autocommit statement
 */
public record TransactionInfo(String name, String thread, String outcome, boolean committed, Isolation isolation,
                              String isolationSource, List<Integer> positions, boolean autocommit) {
    public TransactionInfo {
        positions = List.copyOf(positions);
    }
}

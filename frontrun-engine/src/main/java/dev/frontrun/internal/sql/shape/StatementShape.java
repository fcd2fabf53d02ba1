package dev.frontrun.internal.sql.shape;

import java.util.Optional;

/**
 * The facts of one SQL text the anomaly classifier reads, besides its resources.
 *
 * @param takesSnapshot whether the statement reads data under a snapshot (everything but transaction
 *                      control and settings such as SET, SHOW, RESET)
 * @param lockingRead   a {@code SELECT … FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE}: reads the
 *                      newest version and locks it, installs none
 * @param writeBasis    where the values of a write come from ({@link WriteBasis#FRESH} for non-writes)
 * @param isolation     the isolation level the statement sets, if it sets one
 * @param update        whether it is an UPDATE (the statement evaluates the rows it writes)
 */
public record StatementShape(
        boolean takesSnapshot,
        boolean lockingRead,
        WriteBasis writeBasis,
        Optional<IsolationSetting> isolation,
        boolean update) {

    /** The shape of a statement nothing is known about: takes a snapshot, writes freshly. */
    public static final StatementShape UNKNOWN =
            new StatementShape(true, false, WriteBasis.FRESH, Optional.empty(), false);
}

package dev.frontrun.internal.shard;

import dev.frontrun.internal.engine.policy.Choice;
import dev.frontrun.internal.engine.policy.DporPolicy;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import dev.frontrun.internal.engine.policy.TopSplit;
import java.util.ArrayList;
import java.util.List;

/**
 * The schedule policy of one shard. First it finds the split depth, the same in every job: the smallest depth
 * whose top part has at least {@link Shard#leavesWanted()} leaves, or the whole tree when it has fewer. It
 * counts the leaves depth by depth (depth 1, 2, …), each count a pass of executions abandoned at that depth.
 * Then it explores its share: a {@link DporPolicy} split at that depth, below the leaves it owns. Executions
 * of the counting passes and of other shards' leaves are abandoned or not counted, so the explorer counts and
 * judges only the share's.
 */
final class ShardPolicy implements SchedulePolicy {

    private final Shard shard;
    private final List<String> traceKeys = new ArrayList<>();
    private DporPolicy current;
    private Counting counting;
    private Share share;
    private boolean redundant;

    ShardPolicy(Shard shard) {
        this.shard = shard;
        count(1);
    }

    /** A counting pass: every leaf at {@code depth} is abandoned, counted, and whether any reached the depth. */
    private static final class Counting implements TopSplit {
        final int depth;
        int leaves;
        boolean reachedDepth;

        Counting(int depth) {
            this.depth = depth;
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public boolean explore() {
            leaves++;
            return false;
        }
    }

    /** The shard's pass: leaf j is explored when the shard owns it. */
    private final class Share implements TopSplit {
        final int depth;
        final int total;
        int leaves;

        Share(int depth, int total) {
            this.depth = depth;
            this.total = total;
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public boolean explore() {
            return shard.owns(leaves++);
        }
    }

    private void count(int depth) {
        counting = new Counting(depth);
        current = new DporPolicy(null, counting);
    }

    @Override
    public int choose(Choice choice) {
        if (counting != null && choice.position() == counting.depth) {
            counting.reachedDepth = true;
        }
        return current.choose(choice);
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        boolean more = current.executionEnded(record);
        if (counting == null) {
            redundant = current.lastExecutionRedundant();
            if (!redundant && record.ending() != ExecutionRecord.Ending.ABANDONED && current.lastTraceKey() != null) {
                traceKeys.add(current.lastTraceKey());
            }
            return more;
        }
        redundant = true; // a counting pass explores nothing of its own
        if (more) {
            return true;
        }
        if (counting.leaves >= shard.leavesWanted() || !counting.reachedDepth) {
            share = new Share(counting.depth, counting.leaves);
            counting = null;
            current = new DporPolicy(null, share);
        } else {
            count(counting.depth + 1);
        }
        return true;
    }

    @Override
    public boolean lastExecutionRedundant() {
        return redundant;
    }

    @Override
    public int pendingBranches() {
        return current.pendingBranches();
    }

    /** The share's tree, once its pass started; nothing while the top levels are counted. */
    @Override
    public double treeDone() {
        return counting != null ? 0 : current.treeDone();
    }

    @Override
    public boolean exhausted() {
        return counting == null && current.exhausted();
    }

    /** How the tree was split, once the share's pass started (else null). */
    ShardReport.Split split() {
        if (share == null) {
            return null;
        }
        int owned = share.total > shard.index() ? (share.total - shard.index() + shard.count() - 1) / shard.count() : 0;
        return new ShardReport.Split(share.depth, share.total, owned);
    }

    /** The trace keys of the share's counted executions, in the order they ran. */
    List<String> traceKeys() {
        return List.copyOf(traceKeys);
    }
}

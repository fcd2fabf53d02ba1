package dev.frontrun.internal.engine.policy;

import dev.frontrun.Step;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs one execution of each Mazurkiewicz trace, by optimal DPOR, so that every outcome a race can have is seen.
 * How: the package documentation.
 */
public final class DporPolicy implements SchedulePolicy {

    private final DporPath path;
    private final ResourceNumbering ids;
    /** Threads running the same body: a later member's first step always follows the earlier one's. */
    private Symmetry symmetry = Symmetry.NONE;

    /**
     * Traces run so far. Sleep sets keep an unbounded exploration from repeating a trace, except
     * where a thread blocks (a lock wait, a pool wait) and a planned continuation cannot run: such an
     * execution is run to its end rather than abandoned under the program's feet, and is not counted
     * again. Under a preemption bound sleep sets are not enough either.
     */
    private final Set<String> exploredTraces = new HashSet<>();

    private boolean lastRedundant;
    private Step[] lastSteps;
    private Event[] lastEvents;
    private String lastTraceKey;

    public DporPolicy(Integer preemptionBound) {
        this(preemptionBound, (TopSplit) null);
    }

    /** A policy exploring only the leaves {@code split} accepts below its top levels (no bound then). */
    public DporPolicy(Integer preemptionBound, TopSplit split) {
        if (preemptionBound != null && preemptionBound < 0) {
            throw new IllegalArgumentException("preemption bound must not be negative: " + preemptionBound);
        }
        if (preemptionBound != null && split != null) {
            throw new IllegalArgumentException("a split exploration has no preemption bound");
        }
        this.path = new DporPath(preemptionBound, split);
        this.ids = new ResourceNumbering();
    }

    /** A policy that only chooses (a {@link #fork}), numbering resources as {@code ids} does for its origin. */
    private DporPolicy(Integer preemptionBound, TopSplit split, ResourceNumbering ids) {
        this.path = new DporPath(preemptionBound, split);
        this.ids = ids;
    }

    /** This policy, exploring one execution of each set that differ only by swapping threads of {@code symmetric}. */
    public DporPolicy symmetric(Symmetry symmetric) {
        this.symmetry = symmetric;
        return this;
    }

    @Override
    public Symmetry symmetry() {
        return symmetry;
    }

    @Override
    public int choose(Choice choice) {
        int position = choice.position();
        if (choice.alsoDidBefore() != null && position > 0 && position <= path.size()) {
            alsoDid(path.get(position - 1), choice.alsoDidBefore());
        }
        if (position > 0 && position <= path.size()) {
            letGo(position - 1, choice.enabled(), choice.pending());
        }
        Event[] pending = events(choice.pending());
        if (position < path.size()) {
            PathNode node = path.get(position);
            for (int t = 0; t < pending.length; t++) {
                requireRepeated(position, node.pending[t], pending[t]); // as recorded by the node's maker
            }
            node.event = pending[node.chosen] != null ? pending[node.chosen] : node.event;
            return node.chosen;
        }
        PathNode node = path.newNode(position, pending, choice);
        if (path.split != null && !path.enterSplitNode(node, choice)) {
            return ABANDON;
        }
        int chosen = path.pick(node, choice);
        node.chosen = chosen;
        node.event = pending[chosen];
        path.add(node);
        return chosen;
    }

    /**
     * The node's step did more than it announced: its event is what it did. The races and the sleep sets below it see the
     * wider event (coarser: more orders, never fewer); a replay of the node announces the narrower one again and learns
     * the rest the same way.
     */
    private void alsoDid(PathNode node, Step effect) {
        node.event = node.event.with(Event.of(node.event.thread, effect, ids));
    }

    /**
     * A statement that waited inside the database since it began (its thread disabled at every node since) and runs on
     * after the step at {@code m}, which it conflicts with (a COMMIT giving its lock back, most often), takes its locks and
     * meets the rows there: what it does after the wait happens at m. Its event stays where it began (its snapshot is
     * from then), and m's event widens by it: a step of a third thread between the two (an update the waiting statement
     * will find committed when it gets the row) races with m, and DPOR runs it before m too. Coarser: more orders, never
     * fewer. A Java lock's wait is left to its own steps.
     */
    private void letGo(int m, boolean[] enabledNow, Step[] pendingNow) {
        PathNode node = path.get(m);
        if (node.event == null || node.event.synchronizes()) {
            return;
        }
        for (int q = 0; q < enabledNow.length; q++) {
            boolean runsOn = enabledNow[q] || pendingNow[q] != null; // at its next point, even if held back there
            if (q == node.chosen || !node.waitsInside(q) || !runsOn) {
                continue;
            }
            int waited = waitingSince(q, m);
            Event statement = waited < 0 ? null : path.get(waited).event;
            if (statement != null && !statement.synchronizes() && node.event.conflictsWith(statement)) {
                node.event = node.event.with(statement);
            }
        }
    }

    /** Thread q's latest event before m, if q has stood disabled at every node since it (one wait); else -1. */
    private int waitingSince(int q, int m) {
        for (int i = m - 1; i >= 0; i--) {
            PathNode earlier = path.get(i);
            if (earlier.chosen == q) {
                return i;
            }
            if (!earlier.waitsInside(q)) {
                return -1; // it could run meanwhile, or stood before its next step
            }
        }
        return -1;
    }

    /**
     * What DPOR learns from one execution holds for the next only if the program repeats itself. An execution that
     * reaches a position by the same schedule as the one that first got there must find every thread at the same step.
     * (Only there: a step met after other orders may differ by what Frontrun does not see, such as ids Hibernate hands
     * out from one block in memory to whichever thread asks first.) The same step touching other instances of the same
     * resources now (other rows of the same tables, other keys of the same map: a random key) ends the execution, since
     * the policy could no longer tell which orders it has covered. A step of another shape, and a Java lock's or wait's
     * step, is not compared: a thread woken in a Java wait stands at another point without having been chosen.
     */
    @Override
    public List<String> recordedAt(int position) {
        if (position >= path.size()) {
            return List.of();
        }
        PathNode node = path.get(position);
        Event recorded = node.chosen >= 0 ? node.pending[node.chosen] : null;
        return recorded == null ? List.of() : recorded.touched(ids);
    }

    private void requireRepeated(int position, Event before, Event now) {
        if (before != null
                && now != null
                && !before.synchronizes()
                && !now.synchronizes()
                && !before.sameStepAs(now)
                && before.sameShapeAs(now, ids)) {
            throw new NotRepeated(position, now.thread, before.touched(ids), now.touched(ids));
        }
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        lastRedundant = false;
        lastTraceKey = null;
        if (record.alsoDidLast() != null && !path.isEmpty()) {
            alsoDid(path.get(path.size() - 1), record.alsoDidLast());
        }
        if (record.ending() != ExecutionRecord.Ending.ABANDONED && record.ending() != ExecutionRecord.Ending.DIVERGED) {
            RaceAnalysis analysis = new RaceAnalysis(path, symmetry, ids);
            analysis.run();
            analysis.pendingAtEnd(record.pendingAtEnd());
            lastTraceKey = analysis.fingerprint();
            lastRedundant = !exploredTraces.add(lastTraceKey);
        }
        if (path.split != null
                && record.ending() != ExecutionRecord.Ending.ABANDONED
                && path.size() <= path.splitDepth
                && !path.split.explore()) {
            lastRedundant = true; // it ended above the split depth: a leaf of the top part, another share's
        }
        lastRedundant |= path.anyRedundantBelow();
        path.executionEnded();
        return path.backtrack();
    }

    @Override
    public boolean lastExecutionRedundant() {
        return lastRedundant;
    }

    /**
     * The Mazurkiewicz trace of the execution just ended (every event's vector clock, thread by thread). Equal
     * exactly for equivalent executions, in any run of the same program; null after an abandoned one.
     */
    public String lastTraceKey() {
        return lastTraceKey;
    }

    /**
     * A branch still to explore, for a parallel exploration's speculation ({@code ParallelExecutions}):
     * the wakeup-tree branch {@code branch} at path position {@code position}; position -1 is the
     * first execution. Compared by the branch's identity.
     */
    public record Branch(int position, WakeupTree.Node branch) {
        static final Branch FIRST = new Branch(-1, null);
    }

    /** The branch the next execution follows. */
    public Branch next() {
        return path.isEmpty() ? Branch.FIRST : new Branch(path.branchPoint(), path.get(path.branchPoint()).guide);
    }

    /**
     * The branches planted and not yet taken up, in the order a sequential exploration takes them up
     * as far as it is known now: the deepest node's first, each node's in tree order. (Branches that
     * later executions plant below them come before the shallower ones: the order only guides speculation.)
     */
    public List<Branch> pendingInOrder() {
        List<Branch> out = new ArrayList<>();
        for (int i = path.size() - 1; i >= 0; i--) {
            for (WakeupTree.Node branch : path.get(i).wakeup.branches()) {
                out.add(new Branch(i, branch));
            }
        }
        return out;
    }

    /**
     * A policy that chooses as this one will in its next execution ({@link #next()}), to run that
     * execution on another thread; it shares nothing this policy changes afterwards, and is only ever
     * asked to {@link #choose}.
     */
    public DporPolicy forkForNext() {
        DporPolicy fork = new DporPolicy(path.preemptionBound, path.split, ids).symmetric(symmetry);
        for (int i = 0; i < path.size(); i++) {
            PathNode node = path.get(i);
            boolean last = i == path.size() - 1;
            fork.path.add(node.copy(
                    node.sleep.clone(), node.chosen, node.event, last ? WakeupTree.copyOf(node.guide) : null));
        }
        fork.path.branchAt(path.branchPoint());
        return fork;
    }

    /**
     * A policy that chooses as this one would in the execution that takes up {@code pending}, if no
     * branch planted before then changes that execution: its prefix is fixed, and its sleep set is what
     * the choice explored there now and the branches before it leave. Null when {@code pending} would
     * be skipped (its thread asleep by then).
     */
    public DporPolicy forkFor(Branch pending) {
        PathNode at = path.get(pending.position());
        Event[] sleep = at.sleep.clone();
        sleep[at.chosen] = at.event;
        for (WakeupTree.Node before : at.wakeup.branches()) {
            if (before == pending.branch()) {
                break;
            }
            if (path.takeable(at, sleep, before.thread())) {
                sleep[before.thread()] = before.event;
            }
        }
        if (!path.takeable(at, sleep, pending.branch().thread())) {
            return null;
        }
        DporPolicy fork = new DporPolicy(path.preemptionBound, path.split, ids).symmetric(symmetry);
        for (int i = 0; i < pending.position(); i++) {
            PathNode node = path.get(i);
            fork.path.add(node.copy(node.sleep, node.chosen, node.event, null));
        }
        fork.path.add(
                at.copy(sleep, pending.branch().thread(), pending.branch().event, WakeupTree.copyOf(pending.branch())));
        fork.path.branchAt(pending.position());
        return fork;
    }

    /**
     * Replays, without running anything, the choices an execution run elsewhere met ({@code choices},
     * and the thread picked at each, {@code picks}). Whether this policy picks the same at every one.
     * If so, this policy has chosen that execution as if it had run it, and hears of its end next
     * ({@link #executionEnded}); if not, it is left as it was.
     */
    public boolean choosesAsRecorded(List<Choice> choices, List<Integer> picks) {
        int mark = path.size();
        for (int k = 0; k < choices.size(); k++) {
            boolean same;
            try {
                same = choose(choices.get(k)) == picks.get(k);
            } catch (NotRepeated changed) {
                same = false; // run again under this policy's own fork, which ends it where it diverges
            }
            if (!same) {
                path.truncate(mark);
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean exhausted() {
        return path.exhausted();
    }

    @Override
    public double treeDone() {
        return path.treeDone();
    }

    @Override
    public int pendingBranches() {
        return path.pendingBranches();
    }

    /** Events of the pending steps; a thread waiting at the same point keeps its event between choices. */
    private Event[] events(Step[] steps) {
        if (lastSteps == null || lastSteps.length != steps.length) {
            lastSteps = new Step[steps.length];
            lastEvents = new Event[steps.length];
        }
        Event[] out = new Event[steps.length];
        for (int t = 0; t < steps.length; t++) {
            if (steps[t] != null) {
                if (steps[t] != lastSteps[t]) {
                    lastSteps[t] = steps[t];
                    lastEvents[t] = Event.of(t, steps[t], ids);
                }
                out[t] = lastEvents[t];
            }
        }
        return out;
    }
}

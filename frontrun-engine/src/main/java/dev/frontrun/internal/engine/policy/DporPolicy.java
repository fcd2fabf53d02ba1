package dev.frontrun.internal.engine.policy;

import dev.frontrun.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Optimal dynamic partial-order reduction (Abdulla, Aronis, Jonsson, Sagonas: "Source Sets: A
 * Foundation for Optimal Dynamic Partial Order Reduction", JACM 2017, Algorithm 2), run
 * statelessly: every execution replays a prefix of the previous one and diverges at the
 * deepest node whose wakeup tree still holds a branch.
 *
 * <p>Each node of the current path keeps its sleep set (threads whose next event was explored
 * there already, or is asleep by independence) and its wakeup tree. At the end of an execution
 * every reversible race {@code e ≲ e'} adds {@code notdep(e).e'} to the wakeup tree before
 * {@code e}, unless a sleeping thread is a weak initial of it. A database lock seldom disables a
 * thread: a statement that would wait inside PostgreSQL is started and waits there (its position
 * before the holder's commit is a state of its own, reached by reversing its race with the commit).
 * Only a READ COMMITTED statement by key, which would read the row's newest version after the wait
 * wherever it started, stands held back while another thread surely holds its row; its race with the
 * holder is reversed before the holder's take of the row. A Java lock does disable a thread while another
 * explored thread holds it; a race between its give-back and a later take is reversed before the matching take.
 *
 * <p>No resource-group heuristic is needed to keep steps on unrelated resources (other tables)
 * from multiplying the search: a wakeup sequence only carries the events that do not happen after
 * the racing one, so independent intermediate steps never create branches of their own
 * ({@code TraceCountTest.unrelatedIntermediateStepsDoNotExplodeTheSearch}).
 *
 * <p>With a preemption bound, nodes whose choice would exceed it are not explored, and a race
 * whose reversal needs too many preemptions is reversed at the latest earlier node where
 * switching to the racing thread is not a preemption (after Coons et al., bounded POR).
 */
public final class DporPolicy implements SchedulePolicy {

    private final Integer preemptionBound;
    /** The split of a sharded exploration, or null: the whole tree. */
    private final TopSplit split;

    private final int splitDepth;
    private final ResourceNumbering ids;
    /** Threads running the same body: a later member's first step always follows the earlier one's. */
    private Symmetry symmetry = Symmetry.NONE;

    private final List<Node> path = new ArrayList<>();
    private int branchPoint;
    private boolean exhausted;
    /**
     * Traces run so far. Sleep sets keep an unbounded exploration from repeating a trace, except
     * where a thread blocks (a lock wait, a pool wait) and a planned continuation cannot run: such an
     * execution is run to its end rather than abandoned under the program's feet, and is not counted
     * again. Under a preemption bound sleep sets are not enough either.
     */
    private final Set<String> exploredTraces = new HashSet<>();

    private boolean lastRedundant;
    private final TreeShare share = new TreeShare();
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
        this.preemptionBound = preemptionBound;
        this.split = split;
        this.splitDepth = split == null ? 0 : split.depth();
        this.ids = new ResourceNumbering();
    }

    /** A policy that only chooses (a {@link #fork}), numbering resources as {@code ids} does for its origin. */
    private DporPolicy(Integer preemptionBound, TopSplit split, ResourceNumbering ids) {
        this.preemptionBound = preemptionBound;
        this.split = split;
        this.splitDepth = split == null ? 0 : split.depth();
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

    /** One scheduling decision of the current execution. */
    private static final class Node {
        final Event[] pending;
        final boolean[] enabled;
        final int lastThread;
        final int preemptions;
        final Event[] sleep;
        final WakeupTree wakeup;
        int chosen;
        Event event;
        WakeupTree.Node guide;
        /** Every awake thread was asleep here, none blocked: what runs on from here is explored elsewhere. */
        boolean redundantBelow;

        Node(Event[] pending, boolean[] enabled, int lastThread, int preemptions, Event[] sleep, WakeupTree wakeup) {
            this.pending = pending;
            this.enabled = enabled;
            this.lastThread = lastThread;
            this.preemptions = preemptions;
            this.sleep = sleep;
            this.wakeup = wakeup;
        }

        /** A copy for a fork: its choice and event are its own; {@code sleep} replaces this node's. */
        Node copy(Event[] sleepOfCopy, int chosenOfCopy, Event eventOfCopy, WakeupTree.Node guideOfCopy) {
            Node copy = new Node(pending, enabled, lastThread, preemptions, sleepOfCopy, new WakeupTree());
            copy.chosen = chosenOfCopy;
            copy.event = eventOfCopy;
            copy.guide = guideOfCopy;
            return copy;
        }

        boolean isPreemption(int thread) {
            return lastThread >= 0 && thread != lastThread && enabled[lastThread];
        }

        int preemptionsAfter(int thread) {
            return preemptions + (isPreemption(thread) ? 1 : 0);
        }
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
            Node node = path.get(position);
            for (int t = 0; t < pending.length; t++) {
                requireRepeated(position, node.pending[t], pending[t]); // as recorded by the node's maker
            }
            node.event = pending[node.chosen] != null ? pending[node.chosen] : node.event;
            return node.chosen;
        }
        Node node = newNode(position, pending, choice);
        if (split != null && !enterSplitNode(node, choice)) {
            return ABANDON;
        }
        int chosen = pickFromWakeupTree(node);
        if (chosen < 0) {
            chosen = pickFree(node);
        }
        if (chosen < 0) {
            // sleep-set blocked: run on with a sleeping thread rather than abandon an execution the
            // program has already started; if it repeats an explored trace it is not counted again
            chosen = pickFree(node, true);
            // in a split exploration that trace may belong to another shard: with no thread blocked, sleep sets
            // say it is explored elsewhere, so it is not counted (it still runs, for its races)
            node.redundantBelow = split != null && !anyBlocked(node, choice);
        }
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
    private void alsoDid(Node node, Step effect) {
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
        Node node = path.get(m);
        if (node.event == null || node.event.synchronizes()) {
            return;
        }
        for (int q = 0; q < enabledNow.length; q++) {
            boolean runsOn = enabledNow[q] || pendingNow[q] != null; // at its next point, even if held back there
            if (q == node.chosen || !waitsInside(node, q) || !runsOn) {
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
            Node earlier = path.get(i);
            if (earlier.chosen == q) {
                return i;
            }
            if (!waitsInside(earlier, q)) {
                return -1; // it could run meanwhile, or stood before its next step
            }
        }
        return -1;
    }

    /**
     * Whether thread q, not chosen at {@code node}, was inside a step there (a statement waiting in the database). Neither
     * enabled nor standing at its next point, held back before a row another thread surely holds.
     */
    private static boolean waitsInside(Node node, int q) {
        return !node.enabled[q] && node.pending[q] == null;
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
        Node node = path.get(position);
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

    private Node newNode(int position, Event[] pending, Choice choice) {
        int threads = pending.length;
        if (position == 0) {
            return new Node(pending, choice.enabled(), choice.lastThread(), 0, new Event[threads], new WakeupTree());
        }
        Node parent = path.get(position - 1);
        Event[] sleep = new Event[threads];
        for (int q = 0; q < threads; q++) {
            Event asleep = parent.sleep[q];
            if (asleep != null && q != parent.chosen && !asleep.conflictsWith(parent.event)) {
                sleep[q] = asleep;
            }
        }
        return new Node(
                pending,
                choice.enabled(),
                choice.lastThread(),
                parent.preemptionsAfter(parent.chosen),
                sleep,
                WakeupTree.ofChildren(parent.guide));
    }

    /**
     * Above the split depth a node branches on every awake enabled thread (a sleep-set-blocked node whose
     * unfinished threads are all enabled leads only to traces explored elsewhere: it is cut); the node at
     * the depth is a leaf of the top part, explored only if the split accepts it.
     */
    private boolean enterSplitNode(Node node, Choice choice) {
        if (choice.position() == splitDepth) {
            return split.explore();
        }
        if (choice.position() > splitDepth) {
            return true;
        }
        int last = node.lastThread;
        if (last >= 0 && node.enabled[last] && node.sleep[last] == null) {
            node.wakeup.addBranch(node.pending[last]);
        }
        for (int t = 0; t < node.enabled.length; t++) {
            if (t != last && node.enabled[t] && node.sleep[t] == null) {
                node.wakeup.addBranch(node.pending[t]);
            }
        }
        return !node.wakeup.isEmpty() || anyBlocked(node, choice);
    }

    private static boolean anyBlocked(Node node, Choice choice) {
        for (int t = 0; t < node.enabled.length; t++) {
            if (!node.enabled[t] && !choice.finished()[t]) {
                return true;
            }
        }
        return false;
    }

    private int pickFromWakeupTree(Node node) {
        while (!node.wakeup.isEmpty()) {
            WakeupTree.Node branch = node.wakeup.removeFirst();
            int thread = branch.thread();
            if (node.enabled[thread] && withinBound(node.preemptionsAfter(thread))) {
                node.guide = branch;
                return thread;
            }
        }
        return -1;
    }

    private int pickFree(Node node) {
        int awake = pickFree(node, false);
        // Under a bound, a sleeping thread's subtree may have been cut short by the bound, so a
        // sleep-blocked prefix may still lead to an unexplored trace: run on, drop duplicates later.
        return awake >= 0 || preemptionBound == null ? awake : pickFree(node, true);
    }

    private int pickFree(Node node, boolean evenAsleep) {
        int last = node.lastThread;
        if (last >= 0 && node.enabled[last] && (evenAsleep || node.sleep[last] == null)) {
            return last;
        }
        for (int t = 0; t < node.enabled.length; t++) {
            if (node.enabled[t] && (evenAsleep || node.sleep[t] == null) && withinBound(node.preemptionsAfter(t))) {
                return t;
            }
        }
        return -1;
    }

    private boolean withinBound(int preemptions) {
        return preemptionBound == null || preemptions <= preemptionBound;
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        lastRedundant = false;
        lastTraceKey = null;
        if (record.alsoDidLast() != null && !path.isEmpty()) {
            alsoDid(path.get(path.size() - 1), record.alsoDidLast());
        }
        if (record.ending() != ExecutionRecord.Ending.ABANDONED && record.ending() != ExecutionRecord.Ending.DIVERGED) {
            RaceAnalysis analysis = new RaceAnalysis(this);
            analysis.run();
            analysis.pendingAtEnd(record.pendingAtEnd());
            lastTraceKey = analysis.fingerprint();
            lastRedundant = !exploredTraces.add(lastTraceKey);
        }
        if (split != null
                && record.ending() != ExecutionRecord.Ending.ABANDONED
                && path.size() <= splitDepth
                && !split.explore()) {
            lastRedundant = true; // it ended above the split depth: a leaf of the top part, another share's
        }
        lastRedundant |= path.stream().anyMatch(node -> node.redundantBelow);
        share.executionEnded(path.size(), this::branchesLikely);
        return backtrack();
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

    private boolean backtrack() {
        for (int i = path.size() - 1; i >= 0; i--) {
            Node node = path.get(i);
            node.sleep[node.chosen] = node.event;
            while (!node.wakeup.isEmpty()) {
                WakeupTree.Node branch = node.wakeup.removeFirst();
                int thread = branch.thread();
                if (node.enabled[thread] && node.sleep[thread] == null && withinBound(node.preemptionsAfter(thread))) {
                    node.chosen = thread;
                    node.guide = branch;
                    node.event = branch.event;
                    path.subList(i + 1, path.size()).clear();
                    branchPoint = i;
                    share.branched(i);
                    return true;
                }
            }
            path.remove(i);
            share.left(i);
        }
        exhausted = true;
        share.exhausted();
        return false;
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
        return path.isEmpty() ? Branch.FIRST : new Branch(branchPoint, path.get(branchPoint).guide);
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
        DporPolicy fork = new DporPolicy(preemptionBound, split, ids).symmetric(symmetry);
        for (int i = 0; i < path.size(); i++) {
            Node node = path.get(i);
            boolean last = i == path.size() - 1;
            fork.path.add(node.copy(
                    node.sleep.clone(), node.chosen, node.event, last ? WakeupTree.copyOf(node.guide) : null));
        }
        fork.branchPoint = branchPoint;
        return fork;
    }

    /**
     * A policy that chooses as this one would in the execution that takes up {@code pending}, if no
     * branch planted before then changes that execution: its prefix is fixed, and its sleep set is what
     * the choice explored there now and the branches before it leave. Null when {@code pending} would
     * be skipped (its thread asleep by then).
     */
    public DporPolicy forkFor(Branch pending) {
        Node at = path.get(pending.position());
        Event[] sleep = at.sleep.clone();
        sleep[at.chosen] = at.event;
        for (WakeupTree.Node before : at.wakeup.branches()) {
            if (before == pending.branch()) {
                break;
            }
            if (takeable(at, sleep, before.thread())) {
                sleep[before.thread()] = before.event;
            }
        }
        if (!takeable(at, sleep, pending.branch().thread())) {
            return null;
        }
        DporPolicy fork = new DporPolicy(preemptionBound, split, ids).symmetric(symmetry);
        for (int i = 0; i < pending.position(); i++) {
            Node node = path.get(i);
            fork.path.add(node.copy(node.sleep, node.chosen, node.event, null));
        }
        fork.path.add(
                at.copy(sleep, pending.branch().thread(), pending.branch().event, WakeupTree.copyOf(pending.branch())));
        fork.branchPoint = pending.position();
        return fork;
    }

    /** Whether backtracking takes up a branch of {@code thread} at {@code node}, given the sleep set then. */
    private boolean takeable(Node node, Event[] sleep, int thread) {
        return node.enabled[thread] && sleep[thread] == null && withinBound(node.preemptionsAfter(thread));
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
                path.subList(Math.min(mark, path.size()), path.size()).clear();
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean exhausted() {
        return exhausted;
    }

    /** Paths longer than this are not scanned for the threads that may race a node's event: the known branches count. */
    private static final int RACE_SCAN_LIMIT = 4_000;

    /**
     * The branches the node at {@code position} will likely have taken, once the execution through it ended. The one
     * taken, and every other thread awake and able to run there that takes a step later in the execution that
     * conflicts with the one taken (DPOR may reverse that race there); or the branches known, if more.
     */
    private int branchesLikely(int position) {
        Node node = path.get(position);
        int known = 1 + node.wakeup.branches().size();
        if (path.size() > RACE_SCAN_LIMIT || node.event == null) {
            return known;
        }
        int racing = 1;
        for (int t = 0; t < node.enabled.length; t++) {
            if (t != node.chosen && node.enabled[t] && node.sleep[t] == null && racesLater(t, node.event, position)) {
                racing++;
            }
        }
        return Math.max(racing, known);
    }

    /** Whether thread {@code t} takes a step after {@code position} that conflicts with {@code event}. */
    private boolean racesLater(int t, Event event, int position) {
        for (int j = position + 1; j < path.size(); j++) {
            Event later = path.get(j).event;
            if (later != null && later.thread == t && later.conflictsWith(event)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public double treeDone() {
        return share.done();
    }

    @Override
    public int pendingBranches() {
        int pending = 0;
        for (Node node : path) {
            pending += node.wakeup.branches().size();
        }
        return pending;
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

    /** The races of the finished execution, and the wakeup sequences that reverse them. */
    private static final class RaceAnalysis {
        private final DporPolicy policy;
        private final List<Node> path;
        private final int n;
        private final int threads;
        private final int[][] clocks;
        private final int[] ordinal;

        RaceAnalysis(DporPolicy policy) {
            this.policy = policy;
            this.path = policy.path;
            this.n = path.size();
            this.threads = n == 0 ? 0 : path.get(0).pending.length;
            this.clocks = new int[n][];
            this.ordinal = new int[n];
        }

        void run() {
            int[] lastOf = new int[threads];
            int[] count = new int[threads];
            Arrays.fill(lastOf, -1);
            int[] latest = new int[threads];
            int[] firstOf = firstEvents();
            int[] firstTouchOf = firstTouches();
            for (int j = 0; j < n; j++) {
                Event ej = path.get(j).event;
                int q = ej.thread;
                ordinal[j] = ++count[q];
                Arrays.fill(latest, -1);
                int found = 0;
                // no other thread has an event before its first: the look back ends there (else a thread that
                // runs long alone, e.g. looping until another writes, would cost a scan per step: quadratic)
                int earliest = j;
                for (int p = 0; p < threads; p++) {
                    if (p != q) {
                        earliest = Math.min(earliest, firstOf[p]);
                    }
                }
                for (int k = j - 1; k >= earliest && found < threads - 1; k--) {
                    Event ek = path.get(k).event;
                    if (ek.thread != q && latest[ek.thread] < 0 && ek.conflictsWith(ej)) {
                        latest[ek.thread] = k;
                        found++;
                    }
                }
                int[] clock = lastOf[q] >= 0 ? clocks[lastOf[q]].clone() : new int[threads];
                for (int p = 0; p < threads; p++) {
                    if (latest[p] >= 0) {
                        join(clock, clocks[latest[p]]);
                    }
                }
                int release = releasedBy(q, lastOf[q], j);
                if (release >= 0) {
                    join(clock, clocks[release]);
                }
                int started = j == firstTouchOf[q] ? startedBefore(q, firstTouchOf) : -1;
                if (started >= 0) {
                    join(clock, clocks[started]);
                }
                clock[q] = ordinal[j];
                clocks[j] = clock;
                boolean analyse = j >= policy.branchPoint;
                for (int p = 0; p < threads; p++) {
                    int k = latest[p];
                    if (analyse
                            && k >= 0
                            && !covered(k, p, q, latest, lastOf[q])
                            && (release < 0 || clocks[release][p] < ordinal[k])
                            && (started < 0 || clocks[started][p] < ordinal[k])) {
                        reverse(k, j);
                    }
                }
                lastOf[q] = j;
            }
        }

        /**
         * The event after which thread q, blocked inside the database since its event {@code previous} (a statement
         * waiting for a lock), could run again, when that is what came between {@code previous} and j and the statement
         * conflicts with it; else -1. q's statement finished only after that event (a COMMIT giving the lock back, most
         * often), so everything q does from j on happens after it: a race reversed before that event must not ask q
         * to run there, where it still waits; a race of an event before that one with j is reversed through the races
         * that let q's statement run without waiting. Java locks are left to their own steps, which say what they take and give back (a
         * give and a later take race, and are reversed before the take given back).
         */
        private int releasedBy(int q, int previous, int j) {
            if (previous < 0
                    || path.get(previous).event.synchronizes()
                    || path.get(j).event.synchronizes()) {
                return -1;
            }
            for (int m = j - 1; m > previous; m--) {
                if (waitsInside(path.get(m), q)) { // not where it was held back before a step: that one had not begun
                    // only a release the waiting statement conflicts with: issued after it instead, the statement would
                    // follow it there too, so every order of the same trace has q's later events after it
                    return path.get(m).event.conflictsWith(path.get(previous).event) ? m : -1;
                }
            }
            return -1;
        }

        /**
         * The event q's first event that touches anything waits for ({@link Symmetry}): the earlier member's first such
         * event, or -1. An order every execution keeps, so nothing that happens before it races with q's.
         */
        private int startedBefore(int q, int[] firstTouchOf) {
            int before = policy.symmetry.startsAfter(q);
            return before >= 0 && firstTouchOf[before] < n ? firstTouchOf[before] : -1;
        }

        /** Each thread's first event on the path that touches a resource ({@code n} for a thread without one). */
        private int[] firstTouches() {
            int[] firstOf = new int[threads];
            Arrays.fill(firstOf, n);
            for (int j = n - 1; j >= 0; j--) {
                if (path.get(j).event.touchesAnything()) {
                    firstOf[path.get(j).event.thread] = j;
                }
            }
            return firstOf;
        }

        /** Each thread's first event on the path ({@code n} for a thread without one). */
        private int[] firstEvents() {
            int[] firstOf = new int[threads];
            Arrays.fill(firstOf, n);
            for (int j = n - 1; j >= 0; j--) {
                firstOf[path.get(j).event.thread] = j;
            }
            return firstOf;
        }

        /**
         * The steps threads were about to run when the execution ended early (a failure, a deadlock)
         * race with the events they conflict with, as if each ran next: the orders in which they run
         * before those events are explored too, so a thread that never got to run is never ignored.
         */
        void pendingAtEnd(List<Step> pending) {
            int[] lastOf = new int[threads];
            Arrays.fill(lastOf, -1);
            for (int j = 0; j < n; j++) {
                lastOf[path.get(j).event.thread] = j;
            }
            for (int q = 0; q < pending.size() && q < threads; q++) {
                Step step = pending.get(q);
                if (step == null) {
                    continue;
                }
                Event e = Event.of(q, step, policy.ids);
                int[] latest = new int[threads];
                Arrays.fill(latest, -1);
                for (int k = n - 1; k >= 0; k--) {
                    Event ek = path.get(k).event;
                    if (ek.thread != q && latest[ek.thread] < 0 && ek.conflictsWith(e)) {
                        latest[ek.thread] = k;
                    }
                }
                int[] firstTouchOf = firstTouches();
                int started = -1;
                if (policy.symmetry.startsAfter(q) >= 0 && firstTouchOf[q] == n && e.touchesAnything()) {
                    started = startedBefore(q, firstTouchOf);
                    if (started < 0) {
                        continue; // it cannot start before the member it waits for
                    }
                }
                for (int p = 0; p < threads; p++) {
                    int k = latest[p];
                    if (k >= policy.branchPoint
                            && !covered(k, p, q, latest, lastOf[q])
                            && (started < 0 || clocks[started][p] < ordinal[k])) {
                        reverse(k, n, e);
                    }
                }
            }
        }

        /** Whether event k (thread p) happens before j through another immediate predecessor of j. */
        private boolean covered(int k, int p, int q, int[] latest, int programPredecessor) {
            if (programPredecessor >= 0 && clocks[programPredecessor][p] >= ordinal[k]) {
                return true;
            }
            for (int other = 0; other < threads; other++) {
                if (other != p && latest[other] >= 0 && clocks[latest[other]][p] >= ordinal[k]) {
                    return true;
                }
            }
            return false;
        }

        private void reverse(int k, int j) {
            reverse(k, j, path.get(j).event);
        }

        /**
         * Plants, before event k, a wakeup sequence that runs {@code later} (at position j, or pending) before it.
         * When k gives back a Java lock that {@code later} takes (and would wait for), {@code later} cannot run
         * before k while k's thread holds the lock: the race is reversed before the take that k gives back. A
         * take of a semaphore's permit may also find one to spare before k: it is reversed at both places.
         */
        private void reverse(int k, int j, Event later) {
            int take = takeGivenBackAt(k, later);
            if (take == k) {
                take = rowTakeHeldAt(k, later);
            }
            if (take != k && later.takesPermit) {
                plant(k, j, later);
            }
            plant(take, j, later);
            int heldShared = take != k && path.get(take).event.retakes ? readTakeBefore(take) : take;
            if (heldShared != take) {
                plant(heldShared, j, later); // an upgrade: a writer waited since the read take
            }
            int leave = take != k ? leftWaitSetBefore(take) : -1;
            if (leave >= 0) {
                plant(leave, j, later); // before a timed wait's exit, which may take the notification later needs
            }
        }

        /** The timed wait's exit from its wait set that the take at m ends (the thread's event just before it), or -1. */
        private int leftWaitSetBefore(int m) {
            Event take = path.get(m).event;
            for (int i = m - 1; i >= 0; i--) {
                Event e = path.get(i).event;
                if (e.thread == take.thread) {
                    return e.takes == take.acquires && e.acquires == null ? i : -1;
                }
            }
            return -1;
        }

        private void plant(int k, int j, Event later) {
            if (k < policy.splitDepth) {
                return; // the top levels of a split exploration branch on every thread already
            }
            int p = path.get(k).event.thread;
            List<Event> v = new ArrayList<>();
            for (int m = k + 1; m < j; m++) {
                if (clocks[m][p] < ordinal[k]) {
                    v.add(path.get(m).event);
                }
            }
            v.add(later);
            Node node = path.get(k);
            if (policy.preemptionBound != null && preemptionsAlong(k, v) > policy.preemptionBound) {
                reverseConservatively(k, v.get(0).thread);
                return;
            }
            insert(node, v);
        }

        private void insert(Node node, List<Event> v) {
            v = startingEnabled(node, v);
            if (v == null) {
                return; // no order of it can start here: every thread it could start with waits at this node
            }
            for (int q = 0; q < threads; q++) {
                // below a split the sleep sets come partly from the top levels' plain sleep-set enumeration, which
                // covers a sleeping thread's traces only where it is an initial (as in source-set DPOR), not a weak one
                if (node.sleep[q] != null
                        && (policy.split != null
                                ? Traces.isInitial(q, v)
                                : Traces.isWeakInitial(q, node.sleep[q], v))) {
                    return;
                }
            }
            node.wakeup.insert(v);
        }

        /**
         * {@code v}, or an equivalent order of it (an initial moved to the front) whose first thread can run at
         * {@code node}; null if none can. A wakeup branch is taken by its first thread: one still waiting at the node
         * (inside the database) would be dropped there, and with it every sequence the tree had merged below it.
         */
        private static List<Event> startingEnabled(Node node, List<Event> v) {
            if (node.enabled[v.get(0).thread]) {
                return v;
            }
            for (int i = 1; i < v.size(); i++) {
                Event e = v.get(i);
                if (node.enabled[e.thread] && Traces.isInitial(e.thread, v)) {
                    List<Event> reordered = new ArrayList<>(v.size());
                    reordered.add(e);
                    for (int m = 0; m < v.size(); m++) {
                        if (m != i) {
                            reordered.add(v.get(m));
                        }
                    }
                    return reordered;
                }
            }
            return null;
        }

        /** The take the upgrade at m held its lock since, shared: its thread's latest earlier take of it (or m). */
        private int readTakeBefore(int m) {
            Event upgrade = path.get(m).event;
            for (int i = m - 1; i >= 0; i--) {
                Event e = path.get(i).event;
                if (e.thread == upgrade.thread && e.acquires == upgrade.acquires) {
                    return i;
                }
            }
            return m;
        }

        /**
         * Where {@code later} can run before event k, when it could not at k. It waits for the newest version of a row k's
         * thread surely held there ({@link Step.RowLocking#BY_KEY_NEWEST}), and stood held back before it at k. Started
         * anywhere while the row is held, it would wait and then do what it does after the holder gave the row back: the
         * only other order is before the holder took the row. That take, or k itself.
         */
        private int rowTakeHeldAt(int k, Event later) {
            Node node = path.get(k);
            int q = later.thread;
            if (!later.rows.newest()
                    || node.enabled[q]
                    || node.pending[q] == null
                    || !node.pending[q].sameStepAs(later)) {
                return k;
            }
            int take = k;
            boolean[] gaveBack = new boolean[threads];
            for (int lock : later.rows.takes()) {
                Arrays.fill(gaveBack, false);
                for (int i = k - 1; i >= 0; i--) {
                    Event e = path.get(i).event;
                    if (e.rows.gives(lock)) {
                        gaveBack[e.thread] = true; // what it took before is an earlier hold
                    } else if (e.rows.takes(lock) && !gaveBack[e.thread] && e.thread != q) {
                        take = Math.min(take, i); // the holder at k took it here, or earlier in the same hold
                    }
                }
            }
            return take;
        }

        /** The event that took the lock event k gives back and {@code later} waits to take, or k itself. */
        private int takeGivenBackAt(int k, Event later) {
            Event given = path.get(k).event;
            if (given.gives == null || given.gives != later.takes) {
                return k;
            }
            for (int m = k - 1; m >= 0; m--) {
                Event e = path.get(m).event;
                if (e.thread == given.thread && e.acquires == given.gives) {
                    return m;
                }
            }
            return k; // taken before the exploration saw it (outside the explored code)
        }

        private int preemptionsAlong(int k, List<Event> v) {
            Node node = path.get(k);
            int preemptions = node.preemptions;
            int last = node.lastThread;
            int[] remaining = new int[threads];
            for (int m = k; m < n; m++) {
                remaining[path.get(m).event.thread]++;
            }
            for (Event e : v) {
                if (last >= 0 && e.thread != last && remaining[last] > 0) {
                    preemptions++;
                }
                remaining[e.thread]--;
                last = e.thread;
            }
            return preemptions;
        }

        private void reverseConservatively(int k, int thread) {
            for (int m = k; m >= 0; m--) {
                Node node = path.get(m);
                if (node.enabled[thread]
                        && !node.isPreemption(thread)
                        && policy.withinBound(node.preemptions)
                        && node.pending[thread] != null) {
                    insert(node, List.of(node.pending[thread]));
                    return;
                }
            }
        }

        /** Identifies the trace: each event's vector clock, listed thread by thread. */
        String fingerprint() {
            StringBuilder sb = new StringBuilder();
            for (int t = 0; t < threads; t++) {
                sb.append('|');
                for (int j = 0; j < n; j++) {
                    if (path.get(j).event.thread == t) {
                        sb.append(Arrays.toString(clocks[j]));
                    }
                }
            }
            return sb.toString();
        }

        private static void join(int[] into, int[] other) {
            for (int i = 0; i < into.length; i++) {
                if (other[i] > into[i]) {
                    into[i] = other[i];
                }
            }
        }
    }
}

package dev.frontrun.specs.conformance;

import dev.frontrun.ResourceAccess;
import dev.frontrun.specs.conformance.EngineRules.LockTable;
import dev.frontrun.specs.conformance.EngineRules.TxState;
import dev.frontrun.specs.conformance.SpecState.Item;
import dev.frontrun.specs.conformance.StateGraph.Edge;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Holds the Java model's decisions against the spec on every state and transition TLC explored.
 *
 * <p>The Java state of a spec state is its projection: a lock registry into which the holder and
 * then the queue of each row are {@code take}n in order, and per transaction a
 * {@code TransactionState} that ran the transaction's finished statements (for what its commit
 * publishes), holds the spec's locks split at the savepoint, has its snapshot if the spec's has
 * been taken, and is aborted if the spec's is. For each transition, the Java operation the runner
 * and proxy perform for it is applied to the projection of the source state and must give the
 * projection of the target state; so each disagreement shows at the transition where it arises.
 * See {@link Check} for what is compared, and {@link Known} for the disagreements found so far.
 */
public final class ConformanceCheck {

    /** What is compared. */
    public enum Check {
        /** (a) At a statement's start: {@code wouldWait(T, locks)} against the spec's "the row is held by another transaction". */
        WOULD_WAIT,
        /** (a) At a statement's start: the predicted wait against the spec's outcome (the statement waits). */
        WAIT_OUTCOME,
        /** (a) A ready transaction can start its next statement: in the spec, and by the runner's enabling rule whatever the predicted wait. */
        NEVER_FORBIDDEN,
        /** (a, b) After the transition's lock operations: holder and queue order of every row lock. */
        LOCK_HOLDERS,
        /** (b, c) The locks a COMMIT, ROLLBACK, ROLLBACK TO SAVEPOINT releases ({@code TransactionState.locks}, {@code locksTakenAfter}, {@code rollbackTo}). */
        RELEASED_LOCKS,
        /** {@code TransactionState.takesTransactionSnapshot} against the spec's snapshot point. */
        SNAPSHOT,
        /** (d) The replicated {@code waitForCycle} on the spec's wait-for edges against the spec's {@code onCycle}. */
        DEADLOCK,
        /** (e) Two steps of different transactions that do not commute in the spec's graph must conflict in the engine's table. */
        CONFLICT
    }

    /** Disagreements understood and reported (README, "What the conformance test found"); anything else fails the test. */
    public enum Known {
        /**
         * PostgreSQL frees a failed statement's (sub)transaction's locks at the error; the Java model kept them (and
         * queued a failed NOWAIT) until ROLLBACK or ROLLBACK TO. Fixed since (the failed statement tells what its error
         * released, {@code SchedulingPoints.alsoDid}): kept so that a regression shows.
         */
        ERROR_RELEASES_AT_ONCE,
        /** SKIP LOCKED on a free row locks it; the Java model predicts no lock for SKIP LOCKED. */
        SKIP_LOCKED_LOCKS_FREE_ROW,
        /** NOWAIT on a held row, or a REPEATABLE READ statement on a row changed since its snapshot, fails at once; Java predicts a wait (only makes the runner probe at once). */
        WAIT_PREDICTED_FOR_IMMEDIATE_FAILURE,
        /**
         * A ROLLBACK or ROLLBACK TO SAVEPOINT frees the row a NOWAIT / SKIP LOCKED locks, so the two do not
         * commute. Found by this test; fixed since (a rollback announces a write of every lock it releases):
         * kept so that a regression shows.
         */
        ROLLBACK_RELEASE_WITHOUT_CONFLICT,
        /**
         * A failing statement frees (in PostgreSQL, at once) a row a NOWAIT / SKIP LOCKED locks, but their accesses were
         * on different rows. Fixed since (the failed statement's event widens by what its error released): kept so that
         * a regression shows.
         */
        ERROR_RELEASE_WITHOUT_CONFLICT
    }

    /** One disagreement, with the state it was found in. */
    public record Finding(Check check, Known known, String detail) {
        @Override
        public String toString() {
            return check + (known == null ? " (unexpected)" : " (known: " + known + ")") + ": " + detail;
        }
    }

    /** What a run compared and found. */
    public static final class Result {
        private int states;
        private int edges;
        private final Map<Check, Integer> compared = new EnumMap<>(Check.class);
        private final Map<String, Integer> found = new LinkedHashMap<>();
        private final Map<String, Finding> firstOf = new LinkedHashMap<>();
        private final List<Finding> unexpected = new ArrayList<>();
        private int nonCommuting;
        private int commutingButConflicting;
        private int deadlocked;

        public int states() {
            return states;
        }

        public int edges() {
            return edges;
        }

        public int compared(Check check) {
            return compared.getOrDefault(check, 0);
        }

        /** How many disagreements of {@code check} fall into {@code known} (null: unexpected ones). */
        public int found(Check check, Known known) {
            return found.getOrDefault(check + "/" + known, 0);
        }

        /** Every disagreement no {@link Known} class explains (up to 50). */
        public List<Finding> unexpected() {
            return unexpected;
        }

        /** The first disagreement of each kind, as an example. */
        public Map<String, Finding> examples() {
            return firstOf;
        }

        /** States in which the spec has a wait-for cycle. */
        public int deadlocked() {
            return deadlocked;
        }

        /** Pairs of steps that do not commute in the spec's graph. */
        public int nonCommuting() {
            return nonCommuting;
        }

        /** Pairs that commute in the spec (as far as it models: it has no values) but conflict in Java: the over-approximation. */
        public int commutingButConflicting() {
            return commutingButConflicting;
        }

        void count(Check check) {
            compared.merge(check, 1, Integer::sum);
        }

        void found(Finding f) {
            String key = f.check() + "/" + f.known();
            found.merge(key, 1, Integer::sum);
            firstOf.putIfAbsent(key, f);
            if (f.known() == null && unexpected.size() < 50) {
                unexpected.add(f);
            }
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            sb.append(states)
                    .append(" states, ")
                    .append(edges)
                    .append(" transitions; compared: ")
                    .append(compared)
                    .append("; deadlocked states: ")
                    .append(deadlocked)
                    .append("; non-commuting pairs: ")
                    .append(nonCommuting)
                    .append(", commuting pairs Java orders anyway: ")
                    .append(commutingButConflicting);
            found.forEach((k, n) -> sb.append("\n  ")
                    .append(k)
                    .append(": ")
                    .append(n)
                    .append(", e.g. ")
                    .append(firstOf.get(k).detail()));
            return sb.toString();
        }
    }

    private static final Set<String> SCHEDULING_POINTS = Set.of("Start", "Commit", "Rollback", "RecoverTo");
    private static final String SAVEPOINT = "s";

    private final EngineRules rules;
    private final Map<Long, SpecState> states = new HashMap<>();
    /** Per state: "T1:Start" → target state, for every transition but Done. */
    private final Map<Long, Map<String, Long>> moves = new HashMap<>();

    private final Result result = new Result();

    private ConformanceCheck(EngineRules rules) {
        this.rules = rules;
    }

    /** Checks the Java model given by {@code rules} against every state and transition of {@code graph}. */
    public static Result run(StateGraph graph, EngineRules rules) {
        return new ConformanceCheck(rules).check(graph);
    }

    private Result check(StateGraph graph) {
        graph.states().forEach((id, vars) -> states.put(id, new SpecState(id, vars)));
        result.states = states.size();
        result.edges = graph.edgeCount();
        for (SpecState s : states.values()) {
            Map<String, Long> out = new HashMap<>();
            for (Edge e : graph.outgoing(s.id())) {
                if (!e.action().equals("Done")) {
                    Long previous = out.put(actor(s, state(e.to())) + ":" + e.action(), e.to());
                    if (previous != null && previous != e.to()) {
                        throw new IllegalStateException("two targets for one move from " + s + ": " + e);
                    }
                }
            }
            moves.put(s.id(), out);
        }
        for (SpecState s : states.values()) {
            checkDeadlock(s);
            checkNeverForbidden(s);
            moves.get(s.id())
                    .forEach((move, to) -> checkTransition(
                            s, move.substring(0, move.indexOf(':')), move.substring(move.indexOf(':') + 1), state(to)));
            if (!s.anyGranted()) {
                checkConflicts(s);
            }
        }
        return result;
    }

    // ---------------------------------------------------------------- transitions

    private void checkTransition(SpecState s, String actor, String action, SpecState next) {
        int thread = s.thread(actor);
        switch (action) {
            case "Start" -> {
                Item item = s.current(actor);
                if (item.rowStatement()) {
                    checkStatementStart(s, actor, item, next);
                } else if (item.op().equals("SAVEPOINT")) {
                    compareHolders(s, lockTable(s), next, "SAVEPOINT by " + actor, null, null);
                } else {
                    TxState tx = transaction(s, actor);
                    Set<String> after = tx.locksTakenAfter(SAVEPOINT);
                    Set<String> released = tx.rollbackTo(SAVEPOINT);
                    if (!after.equals(released)) {
                        result.found(new Finding(
                                Check.RELEASED_LOCKS,
                                null,
                                "locksTakenAfter " + after + " but rollbackTo released " + released + " in " + s));
                    }
                    checkRelease(s, actor, "ROLLBACK TO SAVEPOINT", released, next);
                }
            }
            case "Complete" -> {
                // the waiting statement finishes inside the database: no scheduling point; failing, it tells what its
                // error released (SchedulingPoints.alsoDid), and the registry lets those locks go
                boolean failed = next.phase(actor).equals("aborted");
                Set<String> freed = specReleased(s, actor, next);
                LockTable locks = lockTable(s);
                if (failed) {
                    locks.release(thread, failing(s, actor).locksReleasedByAbort());
                }
                compareHolders(
                        s,
                        locks,
                        next,
                        actor + "'s granted " + s.current(actor) + " completes" + (failed ? " with 40001" : ""),
                        failed ? Known.ERROR_RELEASES_AT_ONCE : null,
                        java -> java.release(thread, freed));
            }
            case "Commit", "Rollback" ->
                checkRelease(
                        s, actor, action.toUpperCase(), transaction(s, actor).locks(), next);
            case "RecoverTo" ->
                checkRelease(
                        s,
                        actor,
                        "ROLLBACK TO SAVEPOINT after an error",
                        transaction(s, actor).rollbackTo(SAVEPOINT),
                        next);
            default -> throw new IllegalStateException("unknown action " + action);
        }
    }

    private void checkStatementStart(SpecState s, String actor, Item item, SpecState next) {
        int thread = s.thread(actor);
        SqlStatements.Statement st = rules.statement(item);
        LockTable locks = lockTable(s);
        boolean predicted = locks.wouldWait(thread, st.rowLocks());
        boolean heldByOther = s.holder(item.row()).filter(h -> !h.equals(actor)).isPresent();
        boolean failed = next.phase(actor).equals("aborted");
        String what = actor + " starts " + item + " in " + s;
        if (item.takesLock() && !item.op().equals("SKIP_LOCKED")) {
            result.count(Check.WOULD_WAIT);
            if (predicted != heldByOther) {
                result.found(new Finding(
                        Check.WOULD_WAIT,
                        null,
                        "wouldWait=" + predicted + ", held by another=" + heldByOther + ": " + what));
            }
        }
        result.count(Check.WAIT_OUTCOME);
        boolean waits = next.waiting(actor);
        if (predicted != waits) {
            Known known = predicted && failed ? Known.WAIT_PREDICTED_FOR_IMMEDIATE_FAILURE : null;
            result.found(new Finding(
                    Check.WAIT_OUTCOME,
                    known,
                    "Java predicts " + (predicted ? "a wait" : "no wait") + ", the spec "
                            + (waits ? "waits" : failed ? "fails at once" : "goes on") + ": " + what));
        }

        TxState tx = transaction(s, actor);
        result.count(Check.SNAPSHOT);
        boolean javaSnapshot = tx.takesTransactionSnapshot(st.readsData());
        boolean specSnapshot = !s.snapshotTaken(actor) && next.snapshotTaken(actor);
        if (javaSnapshot != specSnapshot) {
            result.found(new Finding(
                    Check.SNAPSHOT,
                    null,
                    "Java takes the snapshot: " + javaSnapshot + ", the spec: " + specSnapshot + ": " + what));
        }

        locks.take(thread, st.rowLocks());
        if (failed) {
            locks.release(thread, failing(s, actor).locksReleasedByAbort()); // what the error released (alsoDid)
            // known if Java only lacks the release PostgreSQL made at the error (and the failed statement's queue
            // place)
            Set<String> freed = new TreeSet<>(specReleased(s, actor, next));
            freed.addAll(st.rowLocks());
            compareHolders(
                    s,
                    locks,
                    next,
                    what + ", which fails",
                    Known.ERROR_RELEASES_AT_ONCE,
                    java -> java.release(thread, freed));
        } else if (item.op().equals("SKIP_LOCKED")
                && !s.held(actor).contains(item.row())
                && next.held(actor).contains(item.row())) {
            // known if Java only lacks the lock SKIP LOCKED took
            compareHolders(
                    s,
                    locks,
                    next,
                    what,
                    Known.SKIP_LOCKED_LOCKS_FREE_ROW,
                    java -> java.take(thread, Set.of(rules.lockOf(item.row()))));
        } else {
            compareHolders(s, locks, next, what, null, null);
        }
    }

    /** The lock ids of the rows {@code actor} holds in {@code s} but not in {@code next}. */
    private Set<String> specReleased(SpecState s, String actor, SpecState next) {
        Set<String> released = new TreeSet<>();
        for (String row : s.held(actor)) {
            if (!next.held(actor).contains(row)) {
                released.add(rules.lockOf(row));
            }
        }
        return released;
    }

    /** A step that releases {@code javaReleased} (the proxy's choice) from {@code s} to {@code next}. */
    private void checkRelease(SpecState s, String actor, String what, Set<String> javaReleased, SpecState next) {
        Set<String> specReleased = specReleased(s, actor, next);
        result.count(Check.RELEASED_LOCKS);
        if (!new TreeSet<>(javaReleased).equals(specReleased)) {
            result.found(new Finding(
                    Check.RELEASED_LOCKS,
                    null,
                    what + " by " + actor + ": Java releases " + new TreeSet<>(javaReleased) + ", the spec "
                            + specReleased + " in " + s));
        }
        LockTable locks = lockTable(s);
        locks.release(s.thread(actor), javaReleased);
        compareHolders(s, locks, next, what + " by " + actor + " in " + s, null, null);
    }

    /**
     * Compares Java's predicted holders and queues with the spec's in {@code next}. A difference is
     * of the {@code known} kind only if applying {@code reconcile} (the part of the known
     * disagreement Java lacks) to Java's table removes it; otherwise it is unexpected.
     */
    private void compareHolders(
            SpecState s, LockTable java, SpecState next, String what, Known known, Consumer<LockTable> reconcile) {
        result.count(Check.LOCK_HOLDERS);
        int threads = Math.max(2, s.txs().size());
        Map<String, List<Integer>> javaLines = java.lines(allLocks(s), threads);
        Map<String, List<Integer>> specLines = lines(next);
        if (javaLines.equals(specLines)) {
            return;
        }
        boolean explained = false;
        if (known != null) {
            reconcile.accept(java);
            explained = java.lines(allLocks(s), threads).equals(specLines);
        }
        result.found(new Finding(
                Check.LOCK_HOLDERS,
                explained ? known : null,
                "after " + what + ": Java predicts (holder, queue) " + javaLines + ", the spec has " + specLines));
    }

    // ---------------------------------------------------------------- states

    /**
     * The runner's cycle rule is fed what the {@code pg_blocking_pids} probe reports: the first
     * waiter for a row is blocked by its holder, a later one by the waiter just before it (the
     * holder of PostgreSQL's tuple lock; checked by hand on PostgreSQL 15). The spec's edges go from
     * every waiter to the holder; both graphs have a cycle in the same states, which this checks.
     */
    private void checkDeadlock(SpecState s) {
        result.count(Check.DEADLOCK);
        int n = s.txs().size();
        boolean[] blocked = new boolean[n];
        List<List<String>> holders = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            String tx = s.txs().get(t);
            blocked[t] = s.waiting(tx);
            if (!blocked[t]) {
                holders.add(List.of());
                continue;
            }
            String row = s.current(tx).row();
            int place = s.queue(row).indexOf(tx);
            holders.add(
                    place > 0
                            ? List.of(s.queue(row).get(place - 1))
                            : s.holder(row).map(List::of).orElse(List.of()));
        }
        boolean java = rules.waitForCycle(blocked, holders, s.txs());
        boolean spec = !s.onCycle().isEmpty();
        if (spec) {
            result.deadlocked++;
        }
        if (java != spec) {
            result.found(new Finding(
                    Check.DEADLOCK, null, "Java cycle: " + java + ", spec onCycle: " + s.onCycle() + " in " + s));
        }
    }

    private void checkNeverForbidden(SpecState s) {
        for (String t : s.txs()) {
            if (s.phase(t).equals("ready") && s.hasNext(t)) {
                result.count(Check.NEVER_FORBIDDEN);
                boolean predictedWait = lockTable(s)
                        .wouldWait(s.thread(t), rules.statement(s.current(t)).rowLocks());
                if (!moves.get(s.id()).containsKey(t + ":Start")) {
                    result.found(new Finding(
                            Check.NEVER_FORBIDDEN,
                            null,
                            "the spec does not let " + t + " start " + s.current(t) + " in " + s));
                }
                if (!rules.runnerEnables(true, false, predictedWait)) {
                    result.found(new Finding(
                            Check.NEVER_FORBIDDEN,
                            null,
                            "the runner does not let " + t + " start " + s.current(t)
                                    + (predictedWait ? " (a wait is predicted)" : "") + " in " + s));
                }
            }
        }
    }

    // ---------------------------------------------------------------- conflicts

    /**
     * Every pair of scheduling points of different transactions enabled in {@code s}: run them in
     * both orders (each followed by the completions it enables, as the runner lets woken threads
     * run before it chooses again). If the two orders end in different states, or one disables the
     * other, the steps do not commute, and the engine must report a conflict between their accesses.
     */
    private void checkConflicts(SpecState s) {
        List<String> points = new ArrayList<>();
        for (String move : moves.get(s.id()).keySet()) {
            if (SCHEDULING_POINTS.contains(move.substring(move.indexOf(':') + 1))) {
                points.add(move);
            }
        }
        points.sort(null);
        for (int i = 0; i < points.size(); i++) {
            for (int j = i + 1; j < points.size(); j++) {
                String a = points.get(i);
                String b = points.get(j);
                if (actorOf(a).equals(actorOf(b))) {
                    continue;
                }
                Long ab = settled(settled(s.id(), a), b);
                Long ba = settled(settled(s.id(), b), a);
                boolean commute = ab != null && ab.equals(ba);
                boolean conflict = rules.conflict(accesses(s, a), accesses(s, b));
                result.count(Check.CONFLICT);
                if (commute && conflict) {
                    result.commutingButConflicting++;
                }
                if (!commute) {
                    result.nonCommuting++;
                    if (!conflict) {
                        Known known =
                                releaseDecides(s, a, b) != null ? releaseDecides(s, a, b) : releaseDecides(s, b, a);
                        result.found(new Finding(
                                Check.CONFLICT,
                                known,
                                describe(s, a) + " and " + describe(s, b)
                                        + " do not commute, but their accesses " + accesses(s, a) + " and "
                                        + accesses(s, b)
                                        + " do not conflict, in " + s));
                    }
                }
            }
        }
    }

    /**
     * The known class of the pair when move {@code release} frees (in the spec) the row that move
     * {@code test}, a NOWAIT or SKIP LOCKED, locks; null otherwise.
     */
    private Known releaseDecides(SpecState s, String release, String test) {
        if (!test.endsWith(":Start")) {
            return null;
        }
        Item item = s.current(actorOf(test));
        if (!item.op().equals("NOWAIT") && !item.op().equals("SKIP_LOCKED")) {
            return null;
        }
        String releaser = actorOf(release);
        SpecState next = state(moves.get(s.id()).get(release));
        if (!s.held(releaser).contains(item.row()) || next.held(releaser).contains(item.row())) {
            return null;
        }
        return next.phase(releaser).equals("aborted")
                ? Known.ERROR_RELEASE_WITHOUT_CONFLICT
                : Known.ROLLBACK_RELEASE_WITHOUT_CONFLICT;
    }

    /**
     * The accesses of {@code move}'s event in {@code s}: what the proxy announces, and what the errors it leads to
     * released ({@link #releasedAtErrors}).
     */
    private List<ResourceAccess> accesses(SpecState s, String move) {
        List<ResourceAccess> out = new ArrayList<>(announced(s, move));
        out.addAll(releasedAtErrors(s, move));
        return out;
    }

    /**
     * What the engine adds to {@code move}'s event once it has run ({@code SchedulingPoints.alsoDid}): a statement that
     * fails at once releases, at the error, what its (sub)transaction held; a waiting statement the move lets go on and
     * that then fails does the same, told before the runner chooses again, so it counts as part of the move.
     */
    private List<ResourceAccess> releasedAtErrors(SpecState s, String move) {
        List<ResourceAccess> out = new ArrayList<>();
        String actor = actorOf(move);
        Long at = moves.get(s.id()).get(move);
        if (at != null
                && move.endsWith(":Start")
                && s.current(actor).rowStatement()
                && state(at).phase(actor).equals("aborted")) {
            out.addAll(failing(s, actor).abortAccesses());
        }
        while (at != null && state(at).anyGranted()) {
            SpecState g = state(at);
            String granted = granted(g);
            at = completed(at);
            if (at != null && state(at).phase(granted).equals("aborted")) {
                out.addAll(failing(g, granted).abortAccesses());
            }
        }
        return out;
    }

    /** The proxy's transaction state for {@code actor} once its current statement in {@code s} has failed. */
    private TxState failing(SpecState s, String actor) {
        TxState tx = transaction(s, actor);
        SqlStatements.Statement st = rules.statement(s.current(actor));
        tx.ran(st.accesses(), st.undone(), st.rowLocks(), st.readsData());
        tx.abort();
        return tx;
    }

    /** The accesses the proxy announces for {@code move} in {@code s}. */
    private List<ResourceAccess> announced(SpecState s, String move) {
        String actor = actorOf(move);
        String action = move.substring(move.indexOf(':') + 1);
        TxState tx = transaction(s, actor);
        return switch (action) {
            case "Start" -> {
                SqlStatements.Statement st = rules.statement(s.current(actor));
                List<ResourceAccess> out = new ArrayList<>(st.announced());
                if (!st.boundary() && tx.takesTransactionSnapshot(st.readsData())) {
                    out.add(rules.snapshotRead());
                }
                if (s.current(actor).op().equals("ROLLBACK_TO")) {
                    out.addAll(tx.rollbackToAccesses(SAVEPOINT)); // a write of every lock it releases
                }
                yield out;
            }
            case "Commit" -> tx.commitAccesses();
            case "Rollback" -> tx.rollbackAccesses();
            case "RecoverTo" -> tx.rollbackToAccesses(SAVEPOINT);
            default -> List.of();
        };
    }

    /** Where {@code move} leads from {@code from}, after every statement it granted a lock has completed; null if not enabled. */
    private Long settled(Long from, String move) {
        if (from == null) {
            return null;
        }
        Long at = moves.get(from).get(move);
        while (at != null && state(at).anyGranted()) {
            at = completed(at);
        }
        return at;
    }

    /** Where the first granted statement's completion leads from state {@code at} (which has one). */
    private Long completed(long at) {
        return moves.get(at).get(granted(state(at)) + ":Complete");
    }

    /** The first transaction of {@code s} whose waiting statement was granted its lock. */
    private static String granted(SpecState s) {
        return s.txs().stream()
                .filter(t -> s.phase(t).equals("granted"))
                .findFirst()
                .orElseThrow();
    }

    private String describe(SpecState s, String move) {
        String actor = actorOf(move);
        return move.endsWith(":Start")
                ? actor + "'s " + s.current(actor)
                : actor + "'s " + move.substring(move.indexOf(':') + 1);
    }

    // ---------------------------------------------------------------- projections

    /** The lock registry of {@code s}: each row's holder takes it, then its queue in order. */
    private LockTable lockTable(SpecState s) {
        LockTable table = rules.newLockTable();
        for (String row : s.rows()) {
            String lock = rules.lockOf(row);
            s.holder(row).ifPresent(h -> table.take(s.thread(h), Set.of(lock)));
            for (String waiter : s.queue(row)) {
                table.take(s.thread(waiter), Set.of(lock));
            }
        }
        return table;
    }

    /** The spec's (holder, queue…) of every row lock, by thread index. */
    private Map<String, List<Integer>> lines(SpecState s) {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (String row : s.rows()) {
            List<Integer> line = new ArrayList<>();
            s.holder(row).ifPresent(h -> line.add(s.thread(h)));
            s.queue(row).forEach(w -> line.add(s.thread(w)));
            out.put(rules.lockOf(row), List.copyOf(line));
        }
        return out;
    }

    private List<String> allLocks(SpecState s) {
        return s.rows().stream().map(rules::lockOf).toList();
    }

    /** The proxy's transaction state for {@code actor} in {@code s} (see the class comment). */
    private TxState transaction(SpecState s, String actor) {
        TxState tx = rules.newTransaction(s.repeatableRead(actor));
        for (Item done : s.done(actor)) {
            if (done.rowStatement()) {
                SqlStatements.Statement st = rules.statement(done);
                tx.ran(st.accesses(), st.undone(), Set.of(), false);
            }
        }
        Set<String> held = new TreeSet<>();
        s.held(actor).forEach(r -> held.add(rules.lockOf(r)));
        if (s.savepoint(actor).set()) {
            Set<String> before = new TreeSet<>();
            s.savepoint(actor).held().forEach(r -> before.add(rules.lockOf(r)));
            tx.ran(List.of(), List.of(), before, false);
            tx.savepoint(SAVEPOINT);
            held.removeAll(before);
        }
        tx.ran(List.of(), List.of(), held, false);
        if (s.snapshotTaken(actor)) {
            tx.ran(List.of(), List.of(), Set.of(), true);
        }
        if (s.phase(actor).equals("aborted")) {
            tx.abort();
        }
        return tx;
    }

    /** The transaction that acts in {@code from} → {@code to}: the one whose position or phase changed, other than by being granted a lock. */
    private static String actor(SpecState from, SpecState to) {
        Set<String> actors = new HashSet<>();
        for (String t : from.txs()) {
            boolean granted = from.waiting(t) && to.phase(t).equals("granted") && from.pc(t) == to.pc(t);
            if (!granted && (from.pc(t) != to.pc(t) || !from.phase(t).equals(to.phase(t)))) {
                actors.add(t);
            }
        }
        if (actors.size() != 1) {
            throw new IllegalStateException("cannot tell who acts from " + from + " to " + to + ": " + actors);
        }
        return actors.iterator().next();
    }

    private static String actorOf(String move) {
        return move.substring(0, move.indexOf(':'));
    }

    private SpecState state(long id) {
        SpecState s = states.get(id);
        if (s == null) {
            throw new IllegalStateException("no state " + id + " in the dump");
        }
        return s;
    }
}

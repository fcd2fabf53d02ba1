package dev.frontrun.oracle;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One schedule of the ground truth, from the initial data: the controller picks an idle thread
 * (the prefix's choice, else the lowest), sends its next step on that thread's own executor, and
 * then settles: waits until every step in flight either completed or is seen waiting on a lock
 * inside PostgreSQL ({@code pg_blocking_pids}) for another of the program's backends, and until no
 * waits-for cycle among them is left for PostgreSQL's deadlock detector to break. A wait for a
 * backend outside the program (autovacuum analysing the catalog the resets churn) is running, not
 * settled: it ends by itself. A waiting step stays in flight while others go on.
 *
 * <p>When two steps wait at once, one release may let both go on, and the server would pick which goes
 * first. Their backends are paused before the next step (as Frontrun does); a paused step whose wait
 * ended is resumed only as a choice of the search, so both orders are tried. Where a backend cannot be
 * paused the schedule is run to its end but flagged ({@link #twoWaiting()}).
 */
final class ScheduleRun {

    private static final long SETTLE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final Sessions sessions;
    private final OracleSchema.Statistics statistics;
    private final Program program;
    private final List<Integer> prefix;
    private final List<GroundTruth.Decision> expected;
    private final ThreadRun[] runs;
    private final CompletableFuture<Void>[] inFlight;
    private final int[] resultsBefore;
    private final int[] logLine;
    private final boolean[] waiting;
    private final boolean[] held;
    private final boolean[] resumable;
    private final List<StringBuilder> log = new ArrayList<>();
    private final List<GroundTruth.Decision> decisions = new ArrayList<>();
    private boolean deadlocked;
    private boolean twoWaiting;
    private Outcome outcome;

    @SuppressWarnings("unchecked")
    ScheduleRun(
            Sessions sessions,
            OracleSchema.Statistics statistics,
            Program program,
            List<Integer> prefix,
            List<GroundTruth.Decision> expected) {
        this.sessions = sessions;
        this.statistics = statistics;
        this.program = program;
        this.prefix = prefix;
        this.expected = expected;
        int n = program.threadCount();
        this.runs = new ThreadRun[n];
        this.inFlight = new CompletableFuture[n];
        this.resultsBefore = new int[n];
        this.logLine = new int[n];
        this.waiting = new boolean[n];
        this.held = new boolean[n];
        this.resumable = new boolean[n];
        for (int t = 0; t < n; t++) {
            runs[t] = new ThreadRun(program.threads().get(t));
        }
    }

    void execute() throws SQLException {
        sessions.clean(program.threadCount());
        OracleSchema.reset(sessions.control(), statistics);
        try {
            run();
        } finally {
            for (int t = 0; t < runs.length; t++) {
                resume(t);
            }
        }
        List<List<String>> results = new ArrayList<>();
        for (ThreadRun run : runs) {
            results.add(run.results());
        }
        outcome = new Outcome(OracleSchema.state(sessions.control()), results);
    }

    private void run() throws SQLException {
        while (true) {
            settle();
            List<Integer> enabled = new ArrayList<>();
            boolean anyInFlight = false;
            for (int t = 0; t < runs.length; t++) {
                anyInFlight |= inFlight[t] != null;
                if (inFlight[t] == null && !runs[t].done() || resumable[t]) {
                    enabled.add(t);
                }
            }
            if (enabled.isEmpty()) {
                if (anyInFlight) {
                    throw new IllegalStateException(
                            "every unfinished thread waits, and none of the others can end it:\n" + log());
                }
                return;
            }
            holdSimultaneousWaits();
            int chosen = choose(enabled);
            if (resumable[chosen]) {
                log.add(new StringBuilder("t" + chosen + " resumes"));
                resume(chosen);
            } else {
                send(chosen);
            }
        }
    }

    /** Before the next step, pauses every waiting backend when two or more wait. */
    private void holdSimultaneousWaits() throws SQLException {
        int waitingNow = 0;
        for (int t = 0; t < runs.length; t++) {
            waitingNow += waiting[t] && inFlight[t] != null ? 1 : 0;
        }
        if (waitingNow < 2) {
            return;
        }
        for (int t = 0; t < runs.length; t++) {
            if (waiting[t] && inFlight[t] != null && !held[t]) {
                if (sessions.signals().stop(sessions.session(t).pid())) {
                    held[t] = true;
                } else {
                    twoWaiting = true; // the server will choose: this schedule does not decide the outcome
                }
            }
        }
    }

    private void resume(int t) throws SQLException {
        if (held[t]) {
            sessions.signals().resume(sessions.session(t).pid());
            held[t] = false;
            resumable[t] = false;
            waiting[t] = false; // running again: settling finds it done or waiting anew
        }
    }

    private int choose(List<Integer> enabled) {
        int position = decisions.size();
        int chosen = enabled.get(0);
        if (position < prefix.size()) {
            chosen = prefix.get(position);
            GroundTruth.Decision before = expected.get(position);
            if (!before.enabled().equals(enabled) || !enabled.contains(chosen)) {
                throw new IllegalStateException(
                        "the ground truth is not deterministic: at step " + (position + 1) + " threads " + enabled
                                + " could run, before " + before.enabled() + "; " + program + "\n" + log());
            }
        }
        decisions.add(new GroundTruth.Decision(List.copyOf(enabled), chosen, !deadlocked && !twoWaiting));
        return chosen;
    }

    private void send(int t) throws SQLException {
        Sessions.Session session = sessions.session(t);
        ThreadRun run = runs[t];
        Connection c = session.connection();
        resultsBefore[t] = run.results().size();
        waiting[t] = false;
        logLine[t] = log.size();
        log.add(new StringBuilder("t" + t + ": " + run.next()));
        inFlight[t] = CompletableFuture.runAsync(() -> run.runNext(c), session.executor());
    }

    /**
     * Until every step in flight completed or waits, with no waits-for cycle among them. Most steps
     * complete within a millisecond, so the monitor is asked only about steps still running after a
     * short wait on their completion.
     */
    private void settle() throws SQLException {
        long deadline = System.nanoTime() + SETTLE_LIMIT_NANOS;
        while (true) {
            collectCompleted();
            List<CompletableFuture<Void>> running = new ArrayList<>();
            for (CompletableFuture<Void> f : inFlight) {
                if (f != null) {
                    running.add(f);
                }
            }
            if (running.isEmpty()) {
                return;
            }
            if (awaitAnyCompletion(running)) {
                continue;
            }
            Map<Integer, Set<Integer>> waitsFor = new TreeMap<>();
            boolean allWaiting = true;
            int outsideWaiter = -1;
            Set<Integer> outsiders = Set.of();
            for (int t = 0; t < runs.length; t++) {
                if (inFlight[t] != null) {
                    Set<Integer> blockers =
                            sessions.monitor().blockers(sessions.session(t).pid());
                    if (held[t]) {
                        resumable[t] = blockers.isEmpty(); // paused: it goes on only when the search chooses
                        if (resumable[t]) {
                            continue;
                        }
                    }
                    waitsFor.put(t, threadsOf(blockers));
                    boolean outside = waitsFor.get(t).contains(-1); // autovacuum on the catalog, say: it ends by itself
                    if (outside) {
                        outsideWaiter = t;
                        outsiders = blockers;
                    }
                    allWaiting &= !outside && !blockers.isEmpty() && !inFlight[t].isDone();
                }
            }
            if (allWaiting && !cycle(waitsFor)) {
                waitsFor.forEach(this::markWaiting);
                return;
            }
            if (allWaiting) {
                for (int t : waitsFor.keySet()) {
                    resume(t); // a cycle: PostgreSQL's detector, run by a waiting backend, breaks it
                }
            }
            if (System.nanoTime() - deadline > 0) {
                if (outsideWaiter >= 0) {
                    throw outsider(outsideWaiter, outsiders);
                }
                throw new IllegalStateException("steps in flight neither completed nor waited within "
                        + TimeUnit.NANOSECONDS.toSeconds(SETTLE_LIMIT_NANOS) + " s (waits-for " + waitsFor + "):\n"
                        + log());
            }
        }
    }

    /** Whether one of {@code running} completed within a millisecond. */
    private static boolean awaitAnyCompletion(List<CompletableFuture<Void>> running) {
        try {
            CompletableFuture.anyOf(running.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException failed) {
            return true; // surfaces in collectCompleted
        } catch (TimeoutException stillRunning) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while settling", e);
        }
    }

    private void collectCompleted() {
        for (int t = 0; t < runs.length; t++) {
            CompletableFuture<Void> f = inFlight[t];
            if (f == null || !f.isDone()) {
                continue;
            }
            try {
                f.join();
            } catch (RuntimeException e) {
                throw new IllegalStateException("harness error in t" + t + ": " + e.getMessage() + "\n" + log(), e);
            }
            inFlight[t] = null;
            List<String> results = runs[t].results();
            String result = String.join(", ", results.subList(resultsBefore[t], results.size()));
            if (waiting[t]) {
                log.add(new StringBuilder("t" + t + " (woken): → " + result));
            } else {
                log.get(logLine[t]).append("  → ").append(result.isEmpty() ? "done" : result);
            }
            deadlocked |= result.contains("!40P01");
        }
    }

    /** A step still waits for a backend that is none of the program's: the database is not the program's alone. */
    private IllegalStateException outsider(int t, Set<Integer> blockers) throws SQLException {
        StringBuilder out = new StringBuilder("t" + t + " waits for a backend outside the program:");
        for (int pid : blockers) {
            out.append('\n').append(sessions.monitor().describe(pid));
        }
        return new IllegalStateException(
                out.append('\n').append(program).append(log()).toString());
    }

    private void markWaiting(int t, Set<Integer> on) {
        if (!waiting[t]) {
            waiting[t] = true;
            log.get(logLine[t])
                    .append("  … waits for ")
                    .append(on.stream().map(b -> "t" + b).toList());
        }
    }

    /** Thread indices of the given backend pids; -1 for a backend that is not one of the program's. */
    private Set<Integer> threadsOf(Set<Integer> pids) throws SQLException {
        Set<Integer> out = new TreeSet<>();
        for (int pid : pids) {
            int owner = -1;
            for (int t = 0; t < runs.length; t++) {
                if (sessions.session(t).pid() == pid) {
                    owner = t;
                }
            }
            out.add(owner);
        }
        return out;
    }

    private static boolean cycle(Map<Integer, Set<Integer>> waitsFor) {
        for (int start : waitsFor.keySet()) {
            Set<Integer> seen = new TreeSet<>();
            List<Integer> frontier = new ArrayList<>(waitsFor.get(start));
            while (!frontier.isEmpty()) {
                int next = frontier.remove(frontier.size() - 1);
                if (next == start) {
                    return true;
                }
                if (seen.add(next) && waitsFor.containsKey(next)) {
                    frontier.addAll(waitsFor.get(next));
                }
            }
        }
        return false;
    }

    /**
     * Whether two statements waited at the same time and could not be paused. When what they wait for
     * ends, PostgreSQL lets them go in an order of its own (lock queues, then a race to the newest row
     * version), so the rest of the schedule is not determined by the schedule: the search does not
     * branch after it.
     */
    boolean twoWaiting() {
        return twoWaiting;
    }

    Outcome outcome() {
        return outcome;
    }

    List<GroundTruth.Decision> decisions() {
        return List.copyOf(decisions);
    }

    List<String> log() {
        return log.stream().map(StringBuilder::toString).toList();
    }
}

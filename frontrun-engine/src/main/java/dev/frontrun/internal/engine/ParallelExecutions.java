package dev.frontrun.internal.engine;

import dev.frontrun.internal.engine.execution.ExplorationScope;
import dev.frontrun.internal.engine.policy.Choice;
import dev.frontrun.internal.engine.policy.DporPolicy;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import dev.frontrun.internal.engine.run.ExecutionRunner;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The executions of a DPOR exploration on {@code n} {@link ParallelWorker}s, with exactly the results
 * of running them one after the other. The same executions in the same order, so the same verdict,
 * traces, counts and first counterexample.
 *
 * <p>The exploring thread keeps the one {@link DporPolicy}. Every branch already planted in a wakeup tree
 * has its prefix fixed, and its sleep set is known (branches planted later are appended after it), so
 * the execution that will take it up can run early, on an idle worker, under a fork of the policy
 * ({@link DporPolicy#forkFor}). Executions are integrated strictly in the sequential order: the policy
 * replays, without running anything, the choices the worker's execution met, and accepts it only if it
 * picks the same thread at every one ({@link DporPolicy#choosesAsRecorded}) — branches planted meanwhile
 * may have changed what it picks. Otherwise the execution runs again, under a fork of the policy as it
 * is then, which picks as the policy does by construction. The policy then learns from the accepted
 * execution exactly what it would have learnt from running it itself.
 *
 * <p>The price is the work of rejected speculation; what is run is never different. Executions must not
 * share state other than what each worker's hooks give it ({@link ExplorationHook#forWorker}: a database
 * of its own): two of them run at the same time.
 */
final class ParallelExecutions implements Executions {

    /** How long a worker may take to stop after its last execution (its executions have deadlines of their own). */
    private static final Duration STOP_WITHIN = Duration.ofMinutes(2);

    private final DporPolicy policy;
    private final List<String> names;
    private final List<Lane> lanes = new ArrayList<>();
    private final BlockingQueue<Lane> idle = new LinkedBlockingQueue<>();
    private final Map<DporPolicy.Branch, CompletableFuture<Recorded>> speculations = new HashMap<>();
    private final ExplorationClock clock;
    private final RunOnce runs;
    /** The fork that runs a pending branch ahead of time: {@link DporPolicy#forkFor} (tests mislead it on purpose). */
    private final BiFunction<DporPolicy, DporPolicy.Branch, DporPolicy> forks;

    private boolean started;
    /** Executions run again because the policy would not have chosen as they did. */
    private int ranAgain;

    /** What a worker ran: the choices its execution met, the thread picked at each, and the execution judged or what was thrown. */
    private record Recorded(List<Choice> choices, List<Integer> picks, Judged judged, RuntimeException thrown) {}

    /** A worker and what is its own: hooks, scope, clock and (made on its thread) runner. */
    private static final class Lane {
        final ParallelWorker thread;
        final List<ExplorationHook> hooks;
        final ExplorationScope scope = new ExplorationScope();
        final ExplorationClock clock = new ExplorationClock();
        Worker worker;

        Lane(ParallelWorker thread, List<ExplorationHook> hooks) {
            this.thread = thread;
            this.hooks = hooks;
        }
    }

    /**
     * @throws IllegalStateException when a hook cannot run on parallel workers, saying why
     */
    ParallelExecutions(
            DporPolicy policy,
            int workers,
            List<String> names,
            List<ExplorationHook> hooks,
            ExplorationClock clock,
            RunOnce runs) {
        this(policy, workers, names, hooks, clock, runs, DporPolicy::forkFor);
    }

    ParallelExecutions(
            DporPolicy policy,
            int workers,
            List<String> names,
            List<ExplorationHook> hooks,
            ExplorationClock clock,
            RunOnce runs,
            BiFunction<DporPolicy, DporPolicy.Branch, DporPolicy> forks) {
        this.forks = forks;
        this.policy = policy;
        this.names = List.copyOf(names);
        this.clock = clock;
        this.runs = runs;
        String exploration = Integer.toHexString(System.identityHashCode(this));
        for (int w = 0; w < workers; w++) {
            List<ExplorationHook> own = new ArrayList<>();
            for (ExplorationHook hook : hooks) {
                try {
                    own.add(hook.forWorker(w));
                } catch (UnsupportedOperationException e) {
                    throw new IllegalStateException(
                            "parallelism(" + workers + ") is refused: " + e.getMessage()
                                    + ". Explore with parallelism(1).",
                            e);
                }
            }
            lanes.add(new Lane(new ParallelWorker(w, exploration), own));
        }
    }

    /** Starts the workers: each makes its runner and runs its hooks' {@code beforeExploration}; waits for all. */
    void start() {
        started = true;
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (Lane lane : lanes) {
            lane.thread.start();
            ready.add(on(lane, () -> {
                lane.worker = new Worker(new ExecutionRunner(names), lane.scope, lane.hooks, lane.clock);
                for (ExplorationHook hook : lane.hooks) {
                    Hooks.call(hook::beforeExploration, "beforeExploration");
                }
                return null;
            }));
        }
        for (CompletableFuture<Void> future : ready) {
            await(future);
        }
    }

    @Override
    public Ran next(SchedulePolicy ignored, long totalDeadline) {
        CompletableFuture<Recorded> running = speculations.remove(policy.next());
        if (running == null) {
            running = launch(policy.forkForNext(), totalDeadline, true);
        }
        speculate(totalDeadline);
        Recorded recorded = await(running);
        if (!policy.choosesAsRecorded(recorded.choices(), recorded.picks())) {
            ranAgain++;
            running = launch(policy.forkForNext(), totalDeadline, true);
            speculate(totalDeadline);
            recorded = await(running);
            if (!policy.choosesAsRecorded(recorded.choices(), recorded.picks())) {
                throw new IllegalStateException("an execution run under a fork of the exploration's DPOR policy chose"
                        + " differently from the policy itself: a bug of Frontrun's parallel exploration");
            }
        }
        if (recorded.thrown() != null) {
            throw recorded.thrown();
        }
        return new Ran(
                recorded.judged(), policy.executionEnded(recorded.judged().record()));
    }

    @Override
    public Judged alone(SchedulePolicy replay, long totalDeadline) {
        Lane lane = takeIdle();
        return await(on(lane, () -> runs.run(lane.worker, replay, totalDeadline)));
    }

    /** Fills the idle workers with the branches the policy will take up next, in that order. */
    private void speculate(long totalDeadline) {
        if (idle.isEmpty()) {
            return;
        }
        Set<DporPolicy.Branch> pending = new LinkedHashSet<>(policy.pendingInOrder());
        speculations.keySet().retainAll(pending); // a dropped branch's execution ends unread
        for (DporPolicy.Branch branch : pending) {
            if (idle.isEmpty()) {
                return;
            }
            if (speculations.containsKey(branch)) {
                continue;
            }
            DporPolicy fork = forks.apply(policy, branch);
            if (fork != null) {
                speculations.put(branch, launch(fork, totalDeadline, false));
            }
        }
    }

    /** Runs an execution under {@code fork} on an idle worker (waiting for one if {@code wait}), recording its choices. */
    private CompletableFuture<Recorded> launch(DporPolicy fork, long totalDeadline, boolean wait) {
        Lane lane = wait ? takeIdle() : idle.poll();
        return on(lane, () -> {
            List<Choice> choices = new ArrayList<>();
            List<Integer> picks = new ArrayList<>();
            SchedulePolicy recording = new SchedulePolicy() {
                @Override
                public int choose(Choice choice) {
                    int pick = fork.choose(choice);
                    Choice recorded = choice;
                    if (!choices.isEmpty() && choices.get(choices.size() - 1).position() == choice.position()) {
                        // asked again once a late wake-up let the pick run
                        recorded = choice.keepingAlsoDid(choices.remove(choices.size() - 1));
                        picks.remove(picks.size() - 1);
                    }
                    choices.add(recorded);
                    picks.add(pick);
                    return pick;
                }

                @Override
                public boolean executionEnded(ExecutionRecord record) {
                    return false;
                }

                @Override
                public boolean exhausted() {
                    return false;
                }
            };
            try {
                return new Recorded(choices, picks, runs.run(lane.worker, recording, totalDeadline), null);
            } catch (RuntimeException e) {
                return new Recorded(choices, picks, null, e);
            }
        });
    }

    /** How many executions ran again because the policy would not have chosen as they did. */
    int ranAgain() {
        return ranAgain;
    }

    private Lane takeIdle() {
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a parallel worker", e);
        }
    }

    /** Runs {@code work} on {@code lane}'s thread; the lane is idle again once it is done. */
    private <T> CompletableFuture<T> on(Lane lane, Supplier<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        lane.thread.submit(() -> {
            try {
                future.complete(work.get());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            } finally {
                idle.add(lane);
            }
        });
        return future;
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Stops the workers after their running executions (each within its own deadline): each runs its
     * hooks' {@code afterExploration}, closes its scope and runner. Throws the first failure of those.
     */
    @Override
    public void close() {
        speculations.clear();
        if (!started) {
            return;
        }
        List<CompletableFuture<Void>> stopped = new ArrayList<>();
        for (Lane lane : lanes) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            lane.thread.submit(() -> {
                RuntimeException first = null;
                for (ExplorationHook hook : lane.hooks) {
                    try {
                        Hooks.call(hook::afterExploration, "afterExploration");
                    } catch (RuntimeException e) {
                        first = first == null ? e : first;
                    }
                }
                try {
                    lane.scope.close();
                } catch (RuntimeException e) {
                    first = first == null ? e : first;
                }
                if (lane.worker != null) {
                    lane.worker.runner().close();
                }
                if (first != null) {
                    done.completeExceptionally(first);
                } else {
                    done.complete(null);
                }
            });
            lane.thread.finish();
            stopped.add(done);
        }
        RuntimeException first = null;
        long deadline = System.nanoTime() + STOP_WITHIN.toNanos();
        for (int w = 0; w < lanes.size(); w++) {
            Lane lane = lanes.get(w);
            try {
                stopped.get(w).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                first = first == null && e.getCause() instanceof RuntimeException r ? r : first;
            } catch (TimeoutException e) {
                first = first == null
                        ? new IllegalStateException("parallel worker " + w + " did not stop within " + STOP_WITHIN
                                + " (an execution or a hook hangs)")
                        : first;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                first = first == null
                        ? new IllegalStateException("interrupted while stopping parallel workers")
                        : first;
            }
            clock.add(lane.clock);
        }
        if (first != null) {
            throw first;
        }
    }
}

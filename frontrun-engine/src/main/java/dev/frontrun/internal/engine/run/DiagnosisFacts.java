package dev.frontrun.internal.engine.run;

import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.run.Diagnoses.Stuck;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the facts a diagnosis states off one execution's state, so the runner never builds text.
 * {@link Diagnoses} words them.
 */
final class DiagnosisFacts {

    private final RunState run;

    DiagnosisFacts(RunState run) {
        this.run = run;
    }

    /** What each unfinished thread does when no thread can run; {@code pending[t]}: its runnable step, or null. */
    List<Stuck> stuck(Step[] pending) {
        List<Stuck> stuck = new ArrayList<>();
        for (int t = 0; t < run.workers.size(); t++) {
            WorkerThread w = run.workers.get(t);
            if (w.status() == WorkerThread.Status.FINISHED) {
                continue;
            }
            String name = run.workers.name(t);
            if (run.blocks.is(t)) {
                stuck.add(new Stuck.Blocked(
                        name, run.lastStep(t), run.blocks.on(t).reason()));
            } else if (pending[t] != null && run.heldBack(t, pending[t])) {
                int holder = run.locks.firmHolder(t, pending[t].acquires());
                stuck.add(new Stuck.Blocked(name, pending[t], Diagnoses.rowHeldBy(run.workers.name(holder))));
            } else if (pending[t] != null) {
                stuck.add(new Stuck.Ready(name, pending[t]));
            } else if (w.status() == WorkerThread.Status.AT_POINT) {
                Step step = w.pending();
                String heldBy = run.sync
                        .holderBlocking(t, step.detail())
                        .map(run.workers::name)
                        .orElse(null);
                stuck.add(new Stuck.Closed(name, step, heldBy));
            } else {
                stuck.add(new Stuck.Running(name));
            }
        }
        return stuck;
    }

    /** The thread a replayed schedule asked for, and why it cannot run. */
    Diagnoses.Asked asked(int t) {
        if (t < 0 || t >= run.workers.size()) {
            return new Diagnoses.Asked(t, null, null, false);
        }
        String blockedReason = run.blocks.is(t) ? run.blocks.on(t).reason() : null;
        boolean finished = run.workers.get(t).status() == WorkerThread.Status.FINISHED;
        return new Diagnoses.Asked(t, run.workers.name(t), blockedReason, finished);
    }

    /** The runnable threads, each with the step it stands at. */
    List<Diagnoses.At> runnable(boolean[] enabled, Step[] pending) {
        List<Diagnoses.At> out = new ArrayList<>();
        for (int t = 0; t < enabled.length; t++) {
            if (enabled[t]) {
                out.add(new Diagnoses.At(run.workers.name(t), pending[t]));
            }
        }
        return out;
    }

    /** What unfinished threads were last seen waiting for outside the exploration; a failing probe is left out. */
    List<Diagnoses.WaitsOutside> waitsOutside() {
        List<Diagnoses.WaitsOutside> waits = new ArrayList<>();
        run.workers.askProbesAboutUnfinished(
                run.context.blockingProbes(),
                (probe, t) -> probe.waitingOutside(t)
                        .ifPresent(what -> waits.add(new Diagnoses.WaitsOutside(run.workers.name(t), what))));
        return waits;
    }
}

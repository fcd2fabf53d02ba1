package dev.frontrun.internal.exploration;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Verdict;
import dev.frontrun.internal.engine.ExplorationOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The stored schedules of a corpus replayed before an exploration, so a race found once fails the next run in one
 * execution while it is there. A schedule recorded under another step model, or one the program can no longer follow
 * (at some step it names a thread that cannot run there), is stale: reported and dropped, never a failure. The
 * replays stop at the first that fails again.
 */
final class CorpusReplays {

    private final CorpusFile file;
    private final List<CorpusFile.Entry> kept = new ArrayList<>();
    private final List<Schedule> replayed = new ArrayList<>();
    private final List<Result.Corpus.Stale> stale = new ArrayList<>();
    private ExplorationOutcome failedAgain;

    private CorpusReplays(CorpusFile file) {
        this.file = file;
    }

    /**
     * Replays, by {@code replay}, the schedules stored in {@code file} that were recorded under {@code stepModel} (null:
     * nothing instrumented), until one fails again.
     */
    static CorpusReplays run(CorpusFile file, String stepModel, Function<Schedule, ExplorationOutcome> replay) {
        CorpusReplays replays = new CorpusReplays(file);
        for (CorpusFile.Entry entry : file.entries()) {
            if (replays.failedAgain != null) {
                replays.kept.add(entry);
            } else {
                replays.replay(entry, stepModel, replay);
            }
        }
        return replays;
    }

    private void replay(CorpusFile.Entry entry, String stepModel, Function<Schedule, ExplorationOutcome> replay) {
        Schedule schedule = entry.schedule();
        if (schedule == null || schedule.byMarkers()) {
            stale.add(new Result.Corpus.Stale(entry.line(), Result.Corpus.Reason.UNREADABLE));
            return;
        }
        if (!Objects.equals(schedule.model().orElse(null), stepModel)) {
            stale.add(new Result.Corpus.Stale(entry.line(), Result.Corpus.Reason.OTHER_STEP_MODEL));
            return;
        }
        ExplorationOutcome outcome = replay.apply(schedule);
        if (outcome.failure() instanceof Failure.Nondeterminism) {
            stale.add(new Result.Corpus.Stale(entry.line(), Result.Corpus.Reason.PROGRAM_CHANGED));
            return;
        }
        kept.add(entry);
        replayed.add(schedule);
        if (outcome.verdict() == Verdict.FAILS) {
            failedAgain = outcome;
        }
    }

    /** The replay of the stored schedule that failed again, or null: then the exploration runs. */
    ExplorationOutcome failedAgain() {
        return failedAgain;
    }

    /**
     * Writes the corpus back (the stale schedules dropped, {@code result}'s counterexample added when it failed with one
     * not stored yet) and says what it did.
     */
    Result.Corpus finish(Result result) {
        Schedule added = null;
        if (failedAgain == null && result.failed() && result.counterexample().isPresent()) {
            Schedule counterexample = result.counterexample().get();
            boolean stored = kept.stream().anyMatch(entry -> counterexample.equals(entry.schedule()));
            added = stored ? null : counterexample;
        }
        file.write(kept, added, added == null ? null : CorpusFile.comment(result));
        return new Result.Corpus(file.file(), replayed, failedAgain != null, stale, added);
    }
}

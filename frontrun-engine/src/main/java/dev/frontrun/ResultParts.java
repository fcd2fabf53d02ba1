package dev.frontrun;

import dev.frontrun.Result.CheckedAdvice;
import dev.frontrun.Result.Corpus;
import dev.frontrun.Result.FailureGroup;
import dev.frontrun.Result.Reach;
import dev.frontrun.Result.Timings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link Result} is made of, grouped by who fills it, so the public class only answers questions. Copies
 * replace one group: the internal runs add the texts, the report, the checked advice and the corpus after exploring.
 *
 * @param explored  what the explorer established
 * @param failing   the first failure and what was learnt of it
 * @param texts     the renderings for people
 * @param followUps what the exploration adds after the run
 */
record ResultParts(Explored explored, Failing failing, Texts texts, FollowUps followUps) {

    ResultParts {
        Objects.requireNonNull(explored, "explored");
        Objects.requireNonNull(failing, "failing");
        Objects.requireNonNull(texts, "texts");
        Objects.requireNonNull(followUps, "followUps");
    }

    /**
     * What the explorer established: the verdict, how much it explored, and where the time went.
     * {@code timings} is required; the rest may be null where the {@link Result} accessors allow.
     */
    record Explored(
            Verdict verdict,
            int executions,
            boolean exhausted,
            Strategy strategy,
            String inconclusiveBecause,
            Duration elapsed,
            Timings timings,
            Reach reach) {
        Explored {
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(timings, "timings");
        }
    }

    /** The first failure and what was learnt of it: schedule, trace, SQL, replays, and the failures counted. */
    record Failing(
            Failure failure,
            Schedule counterexample,
            List<TraceStep> trace,
            Analysis analysis,
            int reproduced,
            int reproduceAttempts,
            Map<FailureGroup, Integer> failureGroups) {
        Failing {
            trace = trace == null ? List.of() : List.copyOf(trace);
            analysis = analysis == null ? Analysis.none() : analysis;
            failureGroups =
                    failureGroups == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(failureGroups));
        }
    }

    /** The renderings for people: the whole explanation, the short summary (the explanation if null), the report. */
    record Texts(String explanation, String summary, Path report) {
        Texts {
            explanation = explanation == null ? "" : explanation;
            summary = summary == null ? explanation : summary;
        }

        /** No texts yet: they are rendered from the result. */
        static final Texts NONE = new Texts(null, null, null);
    }

    /**
     * What the exploration adds after the run. What it could not explore, whether a forced level counted retries as
     * told, the checked advice (null: none), how to run it again at another level (null: it cannot be), what its
     * corpus did (null: it has none), and the groups of threads it explored by symmetry.
     */
    record FollowUps(
            List<String> notExplored,
            boolean retriesTold,
            CheckedAdvice checkedAdvice,
            Function<Isolation, Result> whatIf,
            Corpus corpus,
            List<List<String>> symmetric) {
        FollowUps {
            notExplored = List.copyOf(notExplored);
            symmetric = symmetric.stream().map(List::copyOf).toList();
        }

        static final FollowUps NONE = new FollowUps(List.of(), false, null, null, null, List.of());

        /** These follow-ups with the advice, the re-run and the corpus given. */
        FollowUps with(CheckedAdvice advice, Function<Isolation, Result> rerun, Corpus added) {
            return new FollowUps(notExplored, retriesTold, advice, rerun, added, symmetric);
        }

        /** These follow-ups, the exploration having used the symmetry of {@code groups}. */
        FollowUps withSymmetric(List<List<String>> groups) {
            return new FollowUps(notExplored, retriesTold, checkedAdvice, whatIf, corpus, groups);
        }
    }

    /** These parts with the advice checked for them (before they are rendered). */
    ResultParts withCheckedAdvice(CheckedAdvice advice) {
        return new ResultParts(
                explored, failing, texts, followUps.with(advice, followUps.whatIf(), followUps.corpus()));
    }

    /** These parts with their two renderings: the whole explanation and the short summary. */
    ResultParts withTexts(String explanation, String summary) {
        return new ResultParts(explored, failing, new Texts(explanation, summary, texts.report()), followUps);
    }

    /** These parts with the report written for them ({@code file}, null if it could not be), named by {@code note}. */
    ResultParts withReport(Path file, String note) {
        return new ResultParts(
                explored, failing, new Texts(texts.explanation() + note, texts.summary() + note, file), followUps);
    }

    /** These parts, whose exploration {@code rerun} explores again at another level. */
    ResultParts withWhatIf(Function<Isolation, Result> rerun) {
        return new ResultParts(
                explored, failing, texts, followUps.with(followUps.checkedAdvice(), rerun, followUps.corpus()));
    }

    /** These parts, the exploration having used the symmetry of {@code groups}. */
    ResultParts withSymmetric(List<List<String>> groups) {
        return new ResultParts(explored, failing, texts, followUps.withSymmetric(groups));
    }

    /** These parts with what the exploration's corpus did (before they are rendered). */
    ResultParts withCorpus(Corpus corpus) {
        return new ResultParts(
                explored, failing, texts, followUps.with(followUps.checkedAdvice(), followUps.whatIf(), corpus));
    }
}

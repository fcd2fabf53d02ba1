package dev.frontrun.oracle;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Brute force on the real server, without Frontrun: every statement-level schedule of a program,
 * each re-executed from the initial data. A depth-first search over the choice of which idle thread
 * sends its next step; {@link ScheduleRun} runs one schedule, letting a statement that waits on a
 * lock stay in flight while the others go on.
 *
 * <p>Once a step failed with 40P01 the outcome's key is {@link Outcome#DEADLOCK} whatever follows,
 * and PostgreSQL's choice of victim depends on timing: the search does not branch after that
 * point, so every schedule it replays is deterministic up to where it branches. Two statements
 * waiting at once (only possible with three threads) end the search: see {@link Truth}.
 */
final class GroundTruth {

    /** One schedule that produced an outcome: what the oracle shows when the exploration misses it. */
    record Witness(Outcome outcome, List<String> schedule) {}

    /**
     * Every distinct outcome (by {@link Outcome#key(boolean)}, up to swapping twins) with its first witness, and how many schedules
     * ran; or, when some schedule had two statements waiting at once, that schedule as {@code race}:
     * the program is undecided, because which of the two PostgreSQL lets go first is not a matter of
     * statement order (seed 229384477 of the certified categories replays differently on the server).
     * {@code serialStates} are the committed results of the serial schedules ({@link SerialStates#normalised}).
     */
    record Truth(Map<String, Witness> outcomes, int schedules, List<String> race, Set<String> serialStates) {
        boolean decided() {
            return race.isEmpty();
        }
    }

    /** A point where the search chose a thread. */
    record Decision(List<Integer> enabled, int chosen, boolean branches) {}

    private static final int MAX_SCHEDULES = 50_000;

    private final Sessions sessions;
    private final OracleSchema.Statistics statistics;

    /** Runs every schedule on {@code sessions}, each from the initial data with the tables' {@code statistics}. */
    GroundTruth(Sessions sessions, OracleSchema.Statistics statistics) {
        this.sessions = sessions;
        this.statistics = statistics;
    }

    Truth explore(Program program) throws SQLException {
        Map<String, Witness> outcomes = new LinkedHashMap<>();
        Set<String> serialStates = new LinkedHashSet<>();
        List<Decision> previous = List.of();
        List<Integer> prefix = List.of();
        int schedules = 0;
        while (prefix != null) {
            if (schedules >= MAX_SCHEDULES) {
                throw new IllegalStateException("more than " + MAX_SCHEDULES + " schedules: " + program);
            }
            ScheduleRun run = new ScheduleRun(sessions, statistics, program, prefix, previous);
            run.execute();
            schedules++;
            if (run.twoWaiting()) {
                return new Truth(outcomes, schedules, run.log(), serialStates);
            }
            outcomes.putIfAbsent(run.outcome().key(program.twins()), new Witness(run.outcome(), run.log()));
            if (SerialStates.serial(run.decisions())) {
                serialStates.add(SerialStates.normalised(run.outcome().database()));
            }
            previous = run.decisions();
            prefix = nextPrefix(previous);
        }
        return new Truth(outcomes, schedules, List.of(), serialStates);
    }

    /** The deepest branching decision with an untried thread, as the prefix of the next schedule; null when done. */
    static List<Integer> nextPrefix(List<Decision> decisions) {
        for (int i = decisions.size() - 1; i >= 0; i--) {
            Decision d = decisions.get(i);
            if (!d.branches()) {
                continue;
            }
            for (int candidate : d.enabled()) {
                if (candidate > d.chosen()) {
                    List<Integer> prefix = new ArrayList<>();
                    for (int j = 0; j < i; j++) {
                        prefix.add(decisions.get(j).chosen());
                    }
                    prefix.add(candidate);
                    return prefix;
                }
            }
        }
        return null;
    }
}

package dev.frontrun;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The order in which threads took their steps in one execution.
 * The i-th entry is the index
 * (in {@code .thread(...)} order) of the thread that ran the i-th step. Printing and parsing
 * round-trip, so a schedule copied from a report replays the same interleaving.
 *
 * <p>Format: runs of the same thread as {@code thread} or {@code thread*count}, separated by
 * {@code '.'} — e.g. {@code 0*2.1*2} for {@code [0, 0, 1, 1]}; the empty schedule prints as {@code -}. A schedule
 * recorded by an exploration that instruments Java code ends in {@code @} and the fingerprint of the settings that
 * shape its steps ({@code 0*2.1*2@3f9a1c}): replayed under other settings it would step elsewhere, so it is refused.
 *
 * <p>A schedule can also be written by hand as markers ({@link #ofMarkers}): the order in which threads
 * pass named markers, for documentation-style tests of a known race.
 */
public final class Schedule {

    private final int[] steps;
    private final List<String> markerEntries;
    private final String model;

    private Schedule(int[] steps) {
        this(steps, null, null);
    }

    private Schedule(int[] steps, List<String> markerEntries, String model) {
        this.steps = steps;
        this.markerEntries = markerEntries;
        this.model = model;
    }

    /** This schedule as recorded under the step model {@code fingerprint} (null: any). */
    public Schedule withModel(String fingerprint) {
        if (fingerprint != null && !fingerprint.matches("[0-9a-z]+")) {
            throw new IllegalArgumentException("not a step model fingerprint: '" + fingerprint + "'");
        }
        return markerEntries != null ? this : new Schedule(steps, null, fingerprint);
    }

    /** The fingerprint of the settings that shaped the recorded steps, when the schedule carries one. */
    public Optional<String> model() {
        return Optional.ofNullable(model);
    }

    /**
     * The interleaving a person wrote, as the order in which threads pass markers.
     * Markers are {@code Frontrun.marker(name)} calls, or {@code // frontrun: name} comments in instrumented classes:
     * {@code "alice:after_read"} runs alice until she arrives at the marker (the marked line has not run
     * yet; her next entry starts there), passing other markers on the way; {@code "alice:*"} runs alice to
     * her end. Other threads wait where they are; after the last entry, the threads left run to their
     * ends. Run it with {@code Exploration.replay}; a marker no thread reaches is an error naming the
     * markers there are.
     */
    public static Schedule ofMarkers(String... entries) {
        List<String> list = new ArrayList<>();
        for (String entry : entries) {
            Objects.requireNonNull(entry, "entry");
            int colon = entry.lastIndexOf(':');
            if (colon <= 0 || colon == entry.length() - 1) {
                throw new IllegalArgumentException(
                        "not a marker schedule entry: '" + entry + "' (expected thread:marker or thread:*)");
            }
            list.add(entry.strip());
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("a marker schedule needs at least one thread:marker entry");
        }
        return new Schedule(new int[0], List.copyOf(list), null);
    }

    /** Whether this schedule was written as markers ({@link #ofMarkers}) rather than recorded step by step. */
    public boolean byMarkers() {
        return markerEntries != null;
    }

    /** The entries of a marker schedule ({@code thread:marker} or {@code thread:*}), or an empty list. */
    public List<String> markerEntries() {
        return markerEntries == null ? List.of() : markerEntries;
    }

    public static Schedule of(int... steps) {
        for (int s : steps) {
            if (s < 0) {
                throw new IllegalArgumentException("thread indexes are not negative: " + Arrays.toString(steps));
            }
        }
        return new Schedule(steps.clone());
    }

    public static Schedule of(List<Integer> steps) {
        return of(steps.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Reads a schedule printed by {@link #toString()}. */
    public static Schedule parse(String text) {
        Objects.requireNonNull(text, "text");
        String s = text.strip();
        int at = s.lastIndexOf('@');
        if (at >= 0) {
            return parse(s.substring(0, at)).withModel(s.substring(at + 1));
        }
        if (s.equals("-") || s.isEmpty()) {
            return new Schedule(new int[0]);
        }
        List<Integer> out = new ArrayList<>();
        for (String run : s.split("\\.")) {
            String[] parts = run.split("\\*", -1);
            try {
                int thread = Integer.parseInt(parts[0]);
                int count = parts.length == 1 ? 1 : Integer.parseInt(parts[1]);
                if (parts.length > 2 || thread < 0 || count < 1) {
                    throw new NumberFormatException(run);
                }
                for (int i = 0; i < count; i++) {
                    out.add(thread);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "not a schedule: '" + text + "' (expected runs like 0*2.1*2, separated by '.')", e);
            }
        }
        return of(out);
    }

    public int length() {
        return steps.length;
    }

    public int threadAt(int step) {
        return steps[step];
    }

    public List<Integer> steps() {
        return Arrays.stream(steps).boxed().toList();
    }

    @Override
    public String toString() {
        if (markerEntries != null) {
            return String.join(", ", markerEntries);
        }
        String suffix = model == null ? "" : "@" + model;
        if (steps.length == 0) {
            return "-" + suffix;
        }
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < steps.length) {
            int j = i;
            while (j < steps.length && steps[j] == steps[i]) {
                j++;
            }
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(steps[i]);
            if (j - i > 1) {
                sb.append('*').append(j - i);
            }
            i = j;
        }
        return sb.append(suffix).toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule other
                && Arrays.equals(steps, other.steps)
                && Objects.equals(markerEntries, other.markerEntries)
                && Objects.equals(model, other.model);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(steps) * 31 + Objects.hashCode(markerEntries)) * 31 + Objects.hashCode(model);
    }
}

package dev.frontrun.internal.serial;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What {@code Exploration.serializable} asked to be observed, frozen. The user's {@code observed} function (null: the
 * database's rows), the columns the normalisation leaves out that the user wants compared ({@code included}) and those
 * the user wants left out ({@code ignored}), by table, whether the threads' responses are part of it, and the most
 * threads whose serial orders are run.
 */
public record SerialSpec<S>(
        Function<? super S, ?> observed,
        Map<String, Set<String>> included,
        Map<String, Set<String>> ignored,
        boolean responses,
        int maxThreads) {

    /** Serial orders are run for at most this many threads unless the user raises it: 5! = 120 runs. */
    public static final int DEFAULT_MAX_THREADS = 5;

    public SerialSpec {
        included = copy(included);
        ignored = copy(ignored);
        if (maxThreads < 1) {
            throw new IllegalArgumentException("maxThreads must be at least 1, got " + maxThreads);
        }
    }

    /** The database's rows and the threads' answers, normalised as documented. */
    public static <S> SerialSpec<S> database() {
        return new SerialSpec<>(null, Map.of(), Map.of(), false, DEFAULT_MAX_THREADS);
    }

    /** What {@code observed} returns of the state, and the threads' answers. */
    public static <S> SerialSpec<S> of(Function<? super S, ?> observed) {
        return new SerialSpec<>(
                Objects.requireNonNull(observed, "observed"), Map.of(), Map.of(), false, DEFAULT_MAX_THREADS);
    }

    /** This spec for a state of another type: the database's rows do not depend on it. */
    @SuppressWarnings("unchecked")
    public <T> SerialSpec<T> cast() {
        return (SerialSpec<T>) this;
    }

    public SerialSpec<S> including(String table, Set<String> columns) {
        return new SerialSpec<>(observed, with(included, table, columns), ignored, responses, maxThreads);
    }

    public SerialSpec<S> ignoring(String table, Set<String> columns) {
        return new SerialSpec<>(observed, included, with(ignored, table, columns), responses, maxThreads);
    }

    public SerialSpec<S> withResponses(boolean on) {
        return new SerialSpec<>(observed, included, ignored, on, maxThreads);
    }

    public SerialSpec<S> withMaxThreads(int threads) {
        return new SerialSpec<>(observed, included, ignored, responses, threads);
    }

    private static Map<String, Set<String>> with(Map<String, Set<String>> map, String table, Set<String> columns) {
        Map<String, Set<String>> out = new HashMap<>(map);
        Set<String> all = new HashSet<>(out.getOrDefault(table, Set.of()));
        all.addAll(columns);
        out.put(table, all);
        return out;
    }

    private static Map<String, Set<String>> copy(Map<String, Set<String>> map) {
        Map<String, Set<String>> out = new HashMap<>();
        map.forEach((table, columns) -> out.put(table, Set.copyOf(columns)));
        return Map.copyOf(out);
    }
}

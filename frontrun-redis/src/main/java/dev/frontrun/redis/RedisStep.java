package dev.frontrun.redis;

import dev.frontrun.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The typed facts of a Redis step, carried by the trace for reports. The commands the step sends (one, or a
 * transaction's queued commands and its {@code EXEC}) and what they touch; as {@link Step.StoreFacts}, the words and
 * resources the engine's reports show.
 *
 * @param commands the commands, in the order sent
 * @param effect   what they touch together (an {@code EXEC} also reads the keys its connection watched)
 * @param atomic   whether the commands ran as one transaction ({@code MULTI … EXEC})
 * @param watched  the keys the connection watched before its {@code EXEC}: the server runs the transaction only if
 *                 none changed since
 * @param cumulative the keys written only by commands that change them from the value they find ({@code INCR},
 *                 {@code APPEND}, {@code SADD}), which keep another client's write before them
 */
public record RedisStep(
        List<Command> commands, Effect effect, boolean atomic, List<KeyRef> watched, List<KeyRef> cumulative)
        implements Step.StoreFacts {

    public RedisStep {
        commands = List.copyOf(commands);
        watched = List.copyOf(watched);
        cumulative = List.copyOf(cumulative);
    }

    /** A step that watched nothing and whose writes may replace their keys. */
    public RedisStep(List<Command> commands, Effect effect, boolean atomic) {
        this(commands, effect, atomic, List.of(), List.of());
    }

    /** The keys the step reads or writes, read ones first. */
    public List<KeyRef> keys() {
        return Stream.concat(effect.reads().stream(), effect.writes().stream()).toList();
    }

    @Override
    public String store() {
        return "redis";
    }

    @Override
    public List<List<String>> operations() {
        return commands.stream().map(RedisStep::words).toList();
    }

    @Override
    public List<String> reads() {
        return resources(effect.reads(), effect.keyspaceReads(), effect.otherReads());
    }

    @Override
    public List<String> writes() {
        return resources(effect.writes(), effect.keyspaceWrites(), effect.otherWrites());
    }

    @Override
    public List<String> guards() {
        return watched.stream().map(KeyRef::resource).toList();
    }

    @Override
    public List<String> cumulativeWrites() {
        return cumulative.stream().map(KeyRef::resource).toList();
    }

    private static List<String> words(Command command) {
        List<String> words = new ArrayList<>();
        words.add(command.name());
        command.args().forEach(arg -> words.add(KeyNames.render(arg)));
        return List.copyOf(words);
    }

    private static List<String> resources(List<KeyRef> keys, java.util.Set<Integer> keyspaces, List<String> others) {
        List<String> resources = new ArrayList<>();
        keys.forEach(key -> resources.add(key.resource()));
        keyspaces.stream().sorted().forEach(db -> resources.add(KeyRef.keyspace(db)));
        resources.addAll(others);
        return List.copyOf(resources);
    }
}

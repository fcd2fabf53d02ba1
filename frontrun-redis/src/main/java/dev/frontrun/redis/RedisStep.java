package dev.frontrun.redis;

import java.util.List;

/**
 * The typed facts of a Redis step, carried by the trace for reports. The commands the step sends (one, or a
 * transaction's queued commands and its {@code EXEC}) and what they touch.
 *
 * @param commands the commands, in the order sent
 * @param effect   what they touch together (an {@code EXEC} also reads the keys its connection watched)
 * @param atomic   whether the commands ran as one transaction ({@code MULTI … EXEC})
 */
public record RedisStep(List<Command> commands, Effect effect, boolean atomic) {

    public RedisStep {
        commands = List.copyOf(commands);
    }

    /** The keys the step reads or writes, read ones first. */
    public List<KeyRef> keys() {
        return java.util.stream.Stream.concat(effect.reads().stream(), effect.writes().stream())
                .toList();
    }
}

package dev.frontrun.redis;

import dev.frontrun.Step;
import dev.frontrun.redis.Effect.Control;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where every client's commands arrive before they leave for the server, on the thread that sends them. Makes each a
 * scheduling point over what it touches, and records what it changes for the restore. A {@code MULTI … EXEC}
 * transaction is one step at its {@code EXEC} (the queued commands touch nothing before it runs them), which also
 * reads the keys its connection watched. Outside an exploration, one type check and one field read.
 *
 * <p>A connection's state (its database, its transaction, its watched keys) is kept per explored thread and execution:
 * a thread runs one transaction at a time, and a client cannot say which of its connections sent a command.
 */
final class CommandFeed {

    private static final int LABEL_LENGTH = 160;

    private final int database;
    private final Object sessions = new Object();
    private volatile Changes changes;

    /** @param database the database the client's connections start on */
    CommandFeed(int database) {
        this.database = database;
    }

    /** Starts (or with null stops) recording what the commands change. */
    void recordInto(Changes changes) {
        this.changes = changes;
    }

    /** Whether a command sent now is neither explored nor recorded: then the client need not even read it. */
    boolean idle() {
        return changes == null && !SchedulingPoints.active();
    }

    /** The command {@code command} is about to leave on the calling thread. */
    void sending(Command command) {
        Changes log = changes;
        boolean active = SchedulingPoints.active();
        if (log == null && !active) {
            return;
        }
        Optional<Session> found = SchedulingPoints.RepeatableRandom.perThread(sessions, (e, owner) -> new Session());
        Session session = found.orElseGet(Session::new);
        if (session.database < 0) {
            session.database = database;
        }
        long start = System.nanoTime();
        Effect effect = CommandTable.classify(session.database, command);
        if (log != null && effect.changesData()) {
            log.record(effect);
        }
        Step step = session.next(command, effect);
        if (active && step != null) {
            SchedulingPoints.currentExecution().ifPresent(e -> recordAnalysis(e, start));
            SchedulingPoints.step(step);
        }
    }

    private static void recordAnalysis(ExecutionContext execution, long start) {
        execution.recordAnalysisTime(System.nanoTime() - start);
    }

    /** One connection's state as its commands set it. */
    private static final class Session {
        int database = -1;
        List<Command> queued;
        List<Effect> queuedEffects;
        final Set<KeyRef> watched = new LinkedHashSet<>();

        /** The step {@code command} is, or null when it is not one of its own. */
        Step next(Command command, Effect effect) {
            Control control = effect.control();
            if (queued != null && control == Control.NONE) {
                queued.add(command);
                queuedEffects.add(effect);
                return null;
            }
            switch (control) {
                case SELECT -> {
                    long db = command.number(0);
                    if (db >= 0) {
                        database = (int) db;
                    }
                    return null;
                }
                case MULTI -> {
                    queued = new ArrayList<>();
                    queuedEffects = new ArrayList<>();
                    return null;
                }
                case EXEC -> {
                    return exec(command);
                }
                case DISCARD, UNWATCH, RESET -> {
                    queued = null;
                    queuedEffects = null;
                    watched.clear();
                    return null;
                }
                case WATCH -> {
                    watched.addAll(effect.reads());
                    return step(List.of(command), List.of(effect), effect, null);
                }
                default -> {
                    return effect.touchesNothing() ? null : step(List.of(command), List.of(effect), effect, null);
                }
            }
        }

        private Step exec(Command exec) {
            List<Command> commands = queued == null ? new ArrayList<>() : new ArrayList<>(queued);
            List<Effect> effects = queuedEffects == null ? new ArrayList<>() : new ArrayList<>(queuedEffects);
            effects.add(new Effect(
                    List.copyOf(watched), List.of(), Set.of(), Set.of(), List.of(), List.of(), Control.EXEC, false));
            commands.add(exec);
            List<KeyRef> guarded = List.copyOf(watched);
            queued = null;
            queuedEffects = null;
            watched.clear();
            return step(commands, effects, merge(effects), guarded);
        }

        private static Effect merge(List<Effect> effects) {
            Set<KeyRef> writes = new LinkedHashSet<>();
            Set<KeyRef> reads = new LinkedHashSet<>();
            Set<Integer> keyspaceReads = new HashSet<>();
            Set<Integer> keyspaceWrites = new HashSet<>();
            Set<String> otherReads = new LinkedHashSet<>();
            Set<String> otherWrites = new LinkedHashSet<>();
            boolean coarse = false;
            for (Effect e : effects) {
                writes.addAll(e.writes());
                reads.addAll(e.reads());
                keyspaceReads.addAll(e.keyspaceReads());
                keyspaceWrites.addAll(e.keyspaceWrites());
                otherReads.addAll(e.otherReads());
                otherWrites.addAll(e.otherWrites());
                coarse |= e.coarse();
            }
            reads.removeAll(writes);
            return new Effect(
                    List.copyOf(reads),
                    List.copyOf(writes),
                    keyspaceReads,
                    keyspaceWrites,
                    List.copyOf(otherReads),
                    List.copyOf(otherWrites),
                    Control.EXEC,
                    coarse);
        }

        /**
         * The step of {@code commands}, each with its own of {@code effects} and {@code effect} for them all;
         * {@code watched} is null unless they are a transaction ({@code EXEC}).
         */
        private static Step step(List<Command> commands, List<Effect> effects, Effect effect, List<KeyRef> watched) {
            StringBuilder label = new StringBuilder("redis ");
            for (int i = 0; i < commands.size(); i++) {
                label.append(i == 0 ? "" : "; ").append(commands.get(i));
            }
            String text = label.length() > LABEL_LENGTH ? label.substring(0, LABEL_LENGTH - 1) + "…" : label.toString();
            return new Step(
                    Accesses.of(effect),
                    Set.of(),
                    Set.of(),
                    text,
                    new RedisStep(
                            commands,
                            effect,
                            watched != null,
                            watched == null ? List.of() : watched,
                            cumulative(commands, effects)));
        }

        /** The keys written, each only by commands that build on the value they find (an {@code INCR}). */
        private static List<KeyRef> cumulative(List<Command> commands, List<Effect> effects) {
            Set<KeyRef> built = new LinkedHashSet<>();
            Set<KeyRef> replaced = new HashSet<>();
            Set<Integer> keyspaces = new HashSet<>();
            for (int i = 0; i < commands.size(); i++) {
                Effect e = effects.get(i);
                (CommandTable.cumulative(commands.get(i)) ? built : replaced).addAll(e.writes());
                keyspaces.addAll(e.keyspaceWrites());
            }
            built.removeAll(replaced);
            built.removeIf(key -> keyspaces.contains(key.db()));
            return List.copyOf(built);
        }
    }
}

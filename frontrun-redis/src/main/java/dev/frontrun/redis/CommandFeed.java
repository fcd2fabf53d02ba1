package dev.frontrun.redis;

import dev.frontrun.Step;
import dev.frontrun.redis.Effect.Control;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

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
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(10);
    private static final long RECHECK_MS = 50;

    private final int database;
    private final Object sessions = new Object();
    private volatile Changes changes;
    /** Whether each command an explored thread sent is answered: an asynchronous client's may not be yet. */
    private final List<BooleanSupplier> unanswered = new ArrayList<>();

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

    /**
     * The command just sent by an explored thread, answered once {@code answered} is true. Call {@link #answered()}
     * when the client learns of an answer.
     */
    void sentExplored(BooleanSupplier answered) {
        synchronized (unanswered) {
            unanswered.removeIf(BooleanSupplier::getAsBoolean);
            unanswered.add(answered);
        }
    }

    /** A command was answered (or failed). */
    void answered() {
        synchronized (unanswered) {
            unanswered.notifyAll();
        }
    }

    /**
     * Waits until the server has answered every command explored threads sent. An asynchronous client (Spring Data
     * Redis's cache writes and evictions, a reactive or async Lettuce API) lets a thread go on, and even end, before
     * its command reaches the server; the invariant or the restore would otherwise race with it.
     */
    void awaitAnswers() throws InterruptedException {
        long deadline = System.nanoTime() + ANSWER_WAIT.toNanos();
        synchronized (unanswered) {
            unanswered.removeIf(BooleanSupplier::getAsBoolean);
            while (!unanswered.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("Redis did not answer " + unanswered.size() + " command(s) of the"
                            + " explored threads within " + ANSWER_WAIT.toSeconds() + " s");
                }
                // a cancelled command is done without an answer: look again now and then
                unanswered.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), RECHECK_MS)));
                unanswered.removeIf(BooleanSupplier::getAsBoolean);
            }
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

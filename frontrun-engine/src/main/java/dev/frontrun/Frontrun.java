package dev.frontrun;

import dev.frontrun.internal.engine.execution.MarkerPoint;
import dev.frontrun.internal.engine.execution.ThreadAnswers;
import dev.frontrun.internal.shard.ShardMerge;
import dev.frontrun.spi.SchedulingPoints;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Entry point: explore the interleavings of threads, and mark shared accesses by hand. On the command line,
 * the merge step of a sharded run: {@code java -cp frontrun-engine.jar dev.frontrun.Frontrun merge-shards <directory>}.
 */
public final class Frontrun {

    private static final String USAGE = "usage: java -cp frontrun-engine.jar " + Frontrun.class.getName()
            + " merge-shards <directory of shard reports>";

    private Frontrun() {}

    /** The command line: {@code merge-shards <directory>} (see {@link #mergeShards}); exits with its code, 2 on bad usage. */
    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !args[0].equals("merge-shards")) {
            System.err.println(USAGE);
            System.exit(2);
        }
        System.exit(mergeShards(Path.of(args[1]), System.out));
    }

    /**
     * The merge step of a sharded run ({@code -Dfrontrun.shard=i/n}), printing each exploration's whole verdict.
     * It reads every shard report in {@code directory}
     * and below it (the jobs' {@code target/frontrun-shards} gathered in one place) and prints each exploration's
     * whole verdict — FAILS with the lowest failing shard's counterexample, HOLDS only when every shard 0..n-1
     * reported a holding share, MISSING naming the shards that did not report.
     *
     * @return 0 when every exploration holds, 1 otherwise, 2 when the directory holds no report
     */
    public static int mergeShards(Path directory, PrintStream out) throws IOException {
        return ShardMerge.run(directory, out);
    }

    /** Starts describing an exploration; {@code setup} makes a fresh state for every execution. */
    public static <S> Exploration<S> explore(Supplier<? extends S> setup) {
        return new Exploration<>(setup);
    }

    /**
     * Instruments the classes under these package prefixes now, for the explorations that ask for them.
     * Those are the explorations of this JVM that call {@link Exploration#instrument}. Integrations call it before the application's
     * classes load (a class loaded earlier is retransformed, its parameter names kept on every JDK). Cheap when
     * already done.
     */
    public static void instrument(String... packagePrefixes) {
        dev.frontrun.internal.instrument.JavaSyncInstrumentation.ensure(List.of(packagePrefixes));
    }

    /**
     * Declares that the calling thread's next step accesses {@code resource} and lets the
     * scheduler decide when it runs. Outside an exploration this does nothing.
     */
    public static void access(String resource, Access kind) {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(kind, "kind");
        if (SchedulingPoints.active()) {
            SchedulingPoints.step(
                    Step.of(kind.name().toLowerCase(Locale.ROOT) + " " + resource, new ResourceAccess(resource, kind)));
        }
    }

    /**
     * Records the HTTP status the calling explored thread's request was answered with (the Spring
     * starter's request bodies do it for MockMvc), for {@link Outcomes} and {@code expectStatus}.
     * Outside an exploration this does nothing.
     */
    public static void status(int httpStatus) {
        ThreadAnswers.recordStatus(httpStatus);
    }

    /**
     * Records what the calling explored thread's request produced (the Spring starter's request
     * bodies record MockMvc's {@code MvcResult}), for the invariant to read from
     * {@link Outcomes.ThreadOutcome#response(Class)}. Outside an exploration this does nothing.
     */
    public static void response(Object response) {
        ThreadAnswers.recordResponse(response);
    }

    /**
     * A scheduling point whose step touches nothing shared: a named position in traces.
     * It is also a marker a
     * {@link Schedule#ofMarkers marker schedule} can name (like a {@code // frontrun: name} comment in an
     * instrumented class).
     */
    public static void marker(String label) {
        Objects.requireNonNull(label, "label");
        if (SchedulingPoints.active()) {
            SchedulingPoints.step(MarkerPoint.step(label));
        }
    }
}

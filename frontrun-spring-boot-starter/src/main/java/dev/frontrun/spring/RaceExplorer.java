package dev.frontrun.spring;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The Spring-side way to race code: a bean of the test context that hands out the engine's own
 * {@link Exploration} builder, set up for the context. Explorations run against the context's
 * {@link DataSource}, which is snapshotted before the first execution and restored before every
 * execution and after the last; with {@code frontrun.native} on and the native library preloaded,
 * SQL an explored thread sends around the JDBC proxy ends the exploration with an error, and its
 * requests to other services over sockets are scheduling points.
 *
 * With no invariant, an exploration checks that every outcome is one a serial order of its threads gives:
 * <pre>{@code
 * Result result = races.explore()
 *     .thread("visit-1", Requests.perform(mvc, post("/owners/1/pets/1/visits/new").param("description", "a")))
 *     .thread("visit-2", Requests.perform(mvc, post("/owners/1/pets/1/visits/new").param("description", "b")))
 *     .run();
 * }</pre>
 */
public final class RaceExplorer {

    /** Ends the "Frontrun saw no SQL" error with what a Spring user does about it. */
    static final String MISSING_PROXY_ADVICE = "let Spring create the DataSource the code under test uses (Frontrun"
            + " wraps every DataSource bean of a context with frontrun.enabled=true, which @FrontrunTest sets);"
            + " a DataSource built by hand outside the context, or a connection opened with DriverManager, is invisible"
            + " to Frontrun — wrap it with FrontrunDataSource.wrap(...)";

    private final Supplier<DataSource> dataSource;
    private final FrontrunProperties properties;
    private final ReportSinks reports;
    /** frontrun.native: the check beneath JDBC, or null without the native auto-configuration */
    private final Supplier<NativeLayer> nativeLayer;

    private final ContextParts context;

    /**
     * What the context adds to every exploration.
     *
     * @param applicationPackages the packages instrumented unless the properties say otherwise
     * @param hooks               the context's exploration hooks, added after the database's
     * @param logs                the logging frameworks whose events of explored threads are held per execution, or null
     * @param observation         what is observed when no invariant is given, or null: the engine's default
     */
    record ContextParts(
            Supplier<List<String>> applicationPackages,
            Supplier<List<ExplorationHook>> hooks,
            Supplier<ExploredLogs> logs,
            Supplier<SerialObservation> observation) {}

    RaceExplorer(
            Supplier<DataSource> dataSource,
            FrontrunProperties properties,
            ReportSinks reports,
            Supplier<NativeLayer> nativeLayer,
            ContextParts context) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.reports = reports;
        this.nativeLayer = nativeLayer;
        this.context = context;
    }

    /**
     * A new exploration with the options the properties set, refusing to run in a test-managed
     * transaction, tied to the context's database, with the context's {@link ExplorationHook} beans
     * (Hibernate's identifier blocks emptied as the database is put back), and remembering its report for the JUnit
     * extension. Unless an invariant is given, it checks that every outcome is one a serial order of the threads gives
     * ({@link Exploration#serializable()}), leaving out the columns Hibernate sets to the time and a {@code @Version}
     * column the engine does not recognise by its name. The Java synchronization and shared memory of the application's classes are scheduling
     * points ({@code frontrun.instrument.*}: by default the packages of the {@code @SpringBootApplication}
     * class). Each thread body runs on a worker thread of its own name that inherits none of
     * the test's thread-locals. What the explored threads log is held per execution and printed for the execution the
     * result shows only, with a count of the lines held back. In a {@code @FrontrunTest} test it keeps its
     * counterexamples in the test method's corpus file and replays them first ({@code frontrun.corpus.*}). It can be
     * run, and replayed, more than once. It explores on one worker:
     * {@code parallelism(n)} is refused, since all requests share the application context.
     */
    public Exploration<Object> explore() {
        DataSource database = Objects.requireNonNull(dataSource.get(), "the context has no DataSource to explore");
        Exploration<Object> exploration = Frontrun.explore(Object::new)
                .hook(new SharedContextRefusal()) // first: parallelism(n) is refused before anything is copied
                .hook(new TestTransactionGuard()); // refuse before the database is snapshotted
        NativeLayer layer = nativeLayer.get();
        if (layer != null) {
            // before the database: its error about SQL around the proxy is more precise than "saw no SQL"
            layer.hooksFor(database).forEach(exploration::hook);
        }
        exploration.database(database, MISSING_PROXY_ADVICE).hook(reports);
        context.hooks().get().forEach(exploration::hook);
        ExploredLogs explored = context.logs().get();
        if (explored != null) {
            exploration.hook(explored.newHook()); // last: it prints the lines it kept when every other hook is done
        }
        SerialObservation observed = context.observation().get();
        exploration.serializableUnlessInvariant(
                observed == null ? Exploration.Observation.database() : observed.observation());
        properties.applyTo(exploration, context.applicationPackages());
        if (properties.getCorpus().enabled()) {
            reports.current()
                    .flatMap(test -> test.nextCorpusFile(properties.getCorpus().directory()))
                    .ifPresent(exploration::corpus);
        }
        return exploration;
    }
}

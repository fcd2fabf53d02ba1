package dev.frontrun.spring;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * One exploration being described: threads, invariant and options, then {@link #run()}. The
 * threads share the application context; each execution starts from the database snapshot.
 */
public final class RaceExploration {

    private static final String MISSING_PROXY = "let Spring create the DataSource the code under test uses (Frontrun"
            + " wraps every DataSource bean of a context with frontrun.enabled=true, which @FrontrunTest sets);"
            + " a DataSource built by hand outside the context, or a connection opened with DriverManager, is invisible"
            + " to Frontrun — wrap it with FrontrunDataSource.wrap(...)";

    private final Exploration<Object> exploration = Frontrun.explore(Object::new);
    private final DataSource dataSource;
    private boolean databaseAttached;

    RaceExploration(DataSource dataSource, FrontrunProperties properties) {
        this.dataSource = Objects.requireNonNull(dataSource, "the context has no DataSource to explore");
        exploration.maxExecutions(properties.maxExecutions())
                .preemptionBound(properties.preemptionBound())
                .executionTimeout(properties.executionTimeout())
                .totalTimeout(properties.totalTimeout())
                .reproduceOnFailure(properties.reproduceCount())
                .reportDirectory(properties.reportDirectory())
                .strategy(properties.strategy() == FrontrunProperties.StrategyName.RANDOM
                        ? Strategy.random(properties.randomSeed(), properties.randomAttempts()) : Strategy.dpor());
    }

    /**
     * Adds a thread: {@code body} runs on a worker thread named {@code name}, created for this
     * exploration (and reused by its executions), that inherits none of the test's thread-locals.
     */
    public RaceExploration thread(String name, ThrowingRunnable body) {
        Objects.requireNonNull(body, "body");
        exploration.thread(name, state -> body.run());
        return this;
    }

    /** What must hold once all threads are done, checked against the database after every execution. */
    public RaceExploration invariant(BooleanSupplier invariant) {
        return invariant(invariant, "the invariant");
    }

    public RaceExploration invariant(BooleanSupplier invariant, String description) {
        Objects.requireNonNull(invariant, "invariant");
        exploration.invariant(state -> invariant.getAsBoolean(), description);
        return this;
    }

    public RaceExploration maxExecutions(int max) {
        exploration.maxExecutions(max);
        return this;
    }

    public RaceExploration preemptionBound(Integer bound) {
        exploration.preemptionBound(bound);
        return this;
    }

    public RaceExploration strategy(Strategy strategy) {
        exploration.strategy(strategy);
        return this;
    }

    public RaceExploration stopOnFirstFailure(boolean stop) {
        exploration.stopOnFirstFailure(stop);
        return this;
    }

    public RaceExploration executionTimeout(Duration timeout) {
        exploration.executionTimeout(timeout);
        return this;
    }

    public RaceExploration totalTimeout(Duration timeout) {
        exploration.totalTimeout(timeout);
        return this;
    }

    public RaceExploration reproduceOnFailure(int times) {
        exploration.reproduceOnFailure(times);
        return this;
    }

    /** Explores until exhausted, the budget runs out, or (by default) the first failure is found and re-checked. */
    public Result run() {
        return remembered(prepared().run());
    }

    /** Runs exactly {@code schedule}, e.g. one printed by a failing exploration. */
    public Result replay(Schedule schedule) {
        return remembered(prepared().replay(schedule));
    }

    /** Lets {@link FrontrunExtension} point to the report if the test then fails. */
    private static Result remembered(Result result) {
        result.report().ifPresent(path -> Reports.wrote(path.toString()));
        return result;
    }

    /** The exploration, tied to the database once however often it is run or replayed. */
    private Exploration<Object> prepared() {
        refuseTestManagedTransaction();
        if (!databaseAttached) {
            exploration.database(dataSource, MISSING_PROXY);
            databaseAttached = true;
        }
        return exploration;
    }

    private static void refuseTestManagedTransaction() {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("Frontrun cannot explore from inside a test-managed transaction: the explored"
                    + " threads run in transactions of their own and cannot see its uncommitted data, and its rollback"
                    + " would not undo theirs. Remove @Transactional from the test (or annotate the test method with"
                    + " @Transactional(propagation = Propagation.NOT_SUPPORTED)); Frontrun restores the database after"
                    + " exploring by itself.");
        }
    }
}

package dev.frontrun.hibernate;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.SessionFactory;

/**
 * Empties Hibernate's second-level cache (entities, collections, queries) whenever Frontrun puts the database back.
 * The cache keeps what the last execution committed; with the rows put back, the next execution would read them as
 * that execution left them — another program than the first execution ran, and a verdict about a database that no
 * longer exists — and after the exploration the application would read rows the restore has undone. Emptying it is
 * invisible to the application: every entry is read again from the database. Emptied before the exploration, before
 * every execution and after the last one.
 *
 * <p>With Spring, the starter adds it to every exploration; with Hibernate alone,
 * {@code exploration.hook(SecondLevelCache.of(sessionFactory))}.
 */
public final class SecondLevelCache implements ExplorationHook {

    private final List<SessionFactory> factories = new CopyOnWriteArrayList<>();

    /** The cache of {@code sessionFactory}. */
    public static SecondLevelCache of(SessionFactory sessionFactory) {
        SecondLevelCache cache = new SecondLevelCache();
        cache.learn(sessionFactory);
        return cache;
    }

    /** Adds the cache of {@code sessionFactory}. */
    public void learn(SessionFactory sessionFactory) {
        factories.add(sessionFactory);
    }

    @Override
    public void beforeExploration() {
        evict();
    }

    @Override
    public void beforeExecution(ExecutionContext execution) {
        evict();
    }

    @Override
    public void afterExploration() {
        evict();
    }

    @Override
    public ExplorationHook forWorker(int worker) {
        throw new UnsupportedOperationException(
                "Hibernate's second-level cache is shared by every execution in the JVM:"
                        + " executions running side by side would read one another's rows from it");
    }

    private void evict() {
        for (SessionFactory factory : factories) {
            if (!factory.isClosed()) {
                factory.getCache().evictAllRegions();
            }
        }
    }
}

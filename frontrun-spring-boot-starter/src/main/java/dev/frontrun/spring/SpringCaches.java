package dev.frontrun.spring;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/**
 * Empties the context's Spring caches whenever an exploration puts the database back.
 * Those are {@code @Cacheable} and every other {@link Cache} of its {@link CacheManager}s; it happens before the exploration, before every execution and after the last
 * one. A cache keeps what the last execution read or computed; with the rows put back, the next execution would start
 * from a cache the first one never saw, and after the exploration the application would read values the restore has
 * undone. Emptying a cache is allowed at any time by its contract, so the application cannot tell, but for the
 * reads it then makes. Each cache is emptied by {@link Cache#invalidate()}, which removes the entries before it
 * returns: {@link Cache#clear()} may remove them later (Spring Data Redis's cache sends the removal without waiting for
 * it), and a removal that lands once the execution has started would undo what it cached.
 */
final class SpringCaches implements ExplorationHook {

    private final Supplier<List<CacheManager>> managers;

    SpringCaches(Supplier<List<CacheManager>> managers) {
        this.managers = managers;
    }

    @Override
    public void beforeExploration() {
        clear();
    }

    @Override
    public void beforeExecution(ExecutionContext execution) {
        clear();
    }

    @Override
    public void afterExploration() {
        clear();
    }

    @Override
    public ExplorationHook forWorker(int worker) {
        throw new UnsupportedOperationException("the context's caches are shared by every execution in it");
    }

    private void clear() {
        for (CacheManager manager : managers.get()) {
            for (String name : manager.getCacheNames()) {
                Cache cache = manager.getCache(name);
                if (cache != null) {
                    cache.invalidate(); // clear() may remove later (a RedisCache sends it without waiting)
                }
            }
        }
    }
}

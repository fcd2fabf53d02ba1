package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.spring.app.ProductCatalog;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/**
 * The context's Spring caches are emptied as the database is put back: every execution starts without the value the
 * test cached before, and the application reads the database's after the exploration, not what the last execution
 * cached.
 */
class SpringCachesTest extends RaceAppTestSupport {

    @Autowired
    private ProductCatalog catalog;

    @Autowired
    private CacheManager caches;

    @Test
    void everyExecutionStartsWithEmptyCachesAndTheApplicationReadsTheDatabaseAfterwards() {
        catalog.name(1); // "kettle", cached before the exploration
        List<Object> cachedAtStart = new CopyOnWriteArrayList<>();
        Result result = races.explore()
                .thread("rename", () -> {
                    cachedAtStart.add(String.valueOf(cached(1)));
                    catalog.rename(1, "pot");
                    catalog.name(1); // caches "pot"
                })
                .thread("count", () -> postOk("/counters/2/increment"))
                .run();

        assertThat(result).hasNoRace().isExhausted();
        org.assertj.core.api.Assertions.assertThat(cachedAtStart)
                .as("the cache as each execution found it")
                .isNotEmpty()
                .containsOnly("null");
        org.assertj.core.api.Assertions.assertThat(catalog.name(1))
                .as("after the exploration")
                .isEqualTo("kettle");
    }

    private Object cached(long product) {
        Cache.ValueWrapper value = caches.getCache(ProductCatalog.CACHE).get(product);
        return value == null ? null : value.get();
    }
}

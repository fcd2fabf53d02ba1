package dev.frontrun.spring.app;

import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Spring's in-memory cache (a ConcurrentHashMap per cache) for {@link ProductCatalog}. */
@Configuration(proxyBeanMethods = false)
@EnableCaching
public class CachingConfiguration {

    @Bean
    CacheManager cacheManager() {
        return new ConcurrentMapCacheManager(ProductCatalog.CACHE);
    }
}

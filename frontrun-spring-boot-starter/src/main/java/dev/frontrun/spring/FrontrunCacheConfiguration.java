package dev.frontrun.spring;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cache.CacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Empties the context's Spring caches whenever an exploration puts the database back ({@link SpringCaches}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(CacheManager.class)
class FrontrunCacheConfiguration {

    @Bean
    SpringCaches frontrunSpringCaches(ObjectProvider<CacheManager> managers) {
        return new SpringCaches(() -> managers.orderedStream().toList());
    }
}

package dev.frontrun.spring;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.jdbc.SchemaHints;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Wraps every {@link DataSource} bean with the Frontrun proxy, once.
 * A bean that already is a
 * Frontrun proxy, or a Spring {@link DelegatingDataSource} (lazy-connection or
 * transaction-aware proxy) over one, is left alone, so no statement passes through two proxies
 * and becomes two scheduling points. Every proxy carries the context's {@link SchemaHints}, which
 * the Hibernate integration fills, so contexts sharing a JVM keep their own table naming.
 */
final class DataSourceWrapper implements BeanPostProcessor {

    /** Bounds the walk down a chain of delegating data sources. */
    private static final int MAX_DELEGATION_DEPTH = 32;

    private final Supplier<SchemaHints> hints;

    /** @param hints the context's hints, looked up only when a data source is wrapped (a post-processor must not pull beans early) */
    DataSourceWrapper(Supplier<SchemaHints> hints) {
        this.hints = hints;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof DataSource dataSource) || delegatesToFrontrun(dataSource)) {
            return bean;
        }
        return FrontrunDataSource.wrap(dataSource, hints.get());
    }

    private static boolean delegatesToFrontrun(DataSource dataSource) {
        DataSource current = dataSource;
        for (int depth = 0;
                current instanceof DelegatingDataSource delegating && depth < MAX_DELEGATION_DEPTH;
                depth++) {
            current = delegating.getTargetDataSource();
            if (current != null && FrontrunDataSource.isWrapped(current)) {
                return true;
            }
        }
        return false;
    }
}

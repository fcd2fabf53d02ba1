package dev.frontrun.spring;

import dev.frontrun.jdbc.FrontrunDataSource;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/** Wraps every {@link DataSource} bean with the Frontrun proxy, once. */
final class DataSourceWrapper implements BeanPostProcessor {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        return bean instanceof DataSource ds ? FrontrunDataSource.wrap(ds) : bean;
    }
}

package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.jdbc.SchemaHints;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/** The post-processor wraps each data source exactly once, however often it sees it. */
class DataSourceWrapperTest {

    private final SchemaHints hints = new SchemaHints();
    private final DataSourceWrapper wrapper = new DataSourceWrapper(() -> hints);

    @Test
    void wrapsADataSourceAndNothingElse() {
        DataSource raw = new PGSimpleDataSource();
        Object wrapped = wrapper.postProcessAfterInitialization(raw, "dataSource");

        assertThat(wrapped).isInstanceOfSatisfying(DataSource.class, ds -> {
            assertThat(FrontrunDataSource.isWrapped(ds)).isTrue();
            assertThat(FrontrunDataSource.unwrapped(ds)).isSameAs(raw);
            assertThat(FrontrunDataSource.schemaHints(ds))
                    .as("the context's hints")
                    .containsSame(hints);
        });
        Object other = new Object();
        assertThat(wrapper.postProcessAfterInitialization(other, "other")).isSameAs(other);
    }

    @Test
    void isIdempotent() {
        Object once = wrapper.postProcessAfterInitialization(new PGSimpleDataSource(), "dataSource");
        assertThat(wrapper.postProcessAfterInitialization(once, "dataSource")).isSameAs(once);
    }

    /** A Spring proxy over an already wrapped data source would make every statement two scheduling points. */
    @Test
    void leavesDelegatingDataSourcesOverAFrontrunProxyAlone() {
        DataSource wrapped = FrontrunDataSource.wrap(new PGSimpleDataSource());
        TransactionAwareDataSourceProxy aware =
                new TransactionAwareDataSourceProxy(new LazyConnectionDataSourceProxy(wrapped));

        assertThat(wrapper.postProcessAfterInitialization(aware, "aware")).isSameAs(aware);
    }

    @Test
    void wrapsDelegatingDataSourcesOverAPlainOne() {
        TransactionAwareDataSourceProxy aware = new TransactionAwareDataSourceProxy(new PGSimpleDataSource());

        Object result = wrapper.postProcessAfterInitialization(aware, "aware");

        assertThat(result)
                .isInstanceOfSatisfying(
                        DataSource.class,
                        ds -> assertThat(FrontrunDataSource.unwrapped(ds)).isSameAs(aware));
    }
}

package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import dev.frontrun.jdbc.SchemaHints;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Turns Frontrun on in a test context ({@code frontrun.enabled=true}, set by {@link FrontrunTest}):
 * wraps every {@link DataSource} bean with the Frontrun JDBC proxy and offers a {@link RaceExplorer}.
 * Transaction, Hibernate, Spring cache and Spring MVC integrations are imported when their classes are present.
 */
@AutoConfiguration
@ConditionalOnClass({Frontrun.class, DataSource.class})
@ConditionalOnProperty(prefix = "frontrun", name = "enabled", havingValue = "true")
@EnableConfigurationProperties(FrontrunProperties.class)
@Import({
    FrontrunTransactionConfiguration.class,
    FrontrunHibernateConfiguration.class,
    FrontrunCacheConfiguration.class,
    FrontrunWebMvcConfiguration.class
})
public class FrontrunAutoConfiguration {

    /** What the ORM says about this context's tables; one per context, so cached test contexts do not mix them. */
    @Bean
    SchemaHints frontrunSchemaHints() {
        return new SchemaHints();
    }

    @Bean
    static BeanPostProcessor frontrunDataSourceWrapper(ObjectProvider<SchemaHints> hints) {
        return new DataSourceWrapper(hints::getObject);
    }

    /** Where this context's explorations leave their reports for the JUnit extension of the running test. */
    @Bean
    ReportSinks frontrunReportSinks() {
        return new ReportSinks();
    }

    /**
     * The explorer of this context; its explorations instrument the application's packages (those of the
     * {@code @SpringBootApplication} class, as Spring Boot registered them) unless the properties say otherwise, and
     * take in the context's {@link ExplorationHook} beans (Frontrun's own, such as Hibernate's identifier blocks, and
     * the application's: state of its own to put back before every execution, say).
     */
    @Bean
    RaceExplorer raceExplorer(
            ObjectProvider<DataSource> dataSources,
            FrontrunProperties properties,
            ReportSinks frontrunReportSinks,
            ObjectProvider<NativeLayer> nativeLayer,
            ObjectProvider<ExplorationHook> hooks,
            BeanFactory beanFactory,
            ObjectProvider<ExploredLogs> logs,
            ObjectProvider<SerialObservation> observation) {
        return new RaceExplorer(
                dataSources::getObject,
                properties,
                frontrunReportSinks,
                nativeLayer::getIfAvailable,
                new RaceExplorer.ContextParts(
                        () -> AutoConfigurationPackages.has(beanFactory)
                                ? AutoConfigurationPackages.get(beanFactory)
                                : List.of(),
                        () -> hooks.orderedStream()
                                .filter(hook -> hook != frontrunReportSinks)
                                .toList(),
                        logs::getIfAvailable,
                        observation::getIfAvailable));
    }

    /** The logging frameworks (Logback, Log4j 2) whose events of explored threads each exploration holds. */
    @Bean
    ExploredLogs frontrunExploredLogs() {
        return ExploredLogs.inUse();
    }
}

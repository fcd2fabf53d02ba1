package dev.frontrun.spring;

import dev.frontrun.hibernate.EntityTables;
import dev.frontrun.hibernate.FrontrunStatementInspector;
import dev.frontrun.hibernate.GeneratedColumns;
import dev.frontrun.hibernate.IdentifierBlocks;
import dev.frontrun.hibernate.RepeatableUuids;
import dev.frontrun.hibernate.SecondLevelCache;
import dev.frontrun.jdbc.SchemaHints;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;
import org.hibernate.SessionFactory;
import org.hibernate.resource.jdbc.spi.StatementInspector;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Lets traces name entities and explorations reset Hibernate's own state, from its metamodel.
 * It registers the Hibernate statement inspector (traces then name the entities a statement
 * touches) and reads the metamodel once the entity manager factory exists: table → entity and id
 * columns, the identifier generators whose blocks every exploration empties, as it empties the
 * second-level cache, the UUID generators it makes repeat, and the version and time columns the check against
 * the serial orders leaves out. An inspector the application configured
 * itself keeps working: it runs first and Frontrun's sees the SQL it returns.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(
        name = {
            "org.hibernate.SessionFactory",
            "org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer"
        })
class FrontrunHibernateConfiguration {

    static final String STATEMENT_INSPECTOR = "hibernate.session_factory.statement_inspector";

    /** Registers into the context's {@link SchemaHints}, the ones its wrapped data sources carry. */
    @Bean
    EntityTables frontrunEntityTables(SchemaHints hints) {
        return new EntityTables(hints);
    }

    @Bean
    HibernatePropertiesCustomizer frontrunStatementInspector(EntityTables tables) {
        return properties -> registerInspector(properties, new FrontrunStatementInspector(tables));
    }

    /**
     * Empties Hibernate's blocks of identifiers whenever an exploration puts the database back: an exploration hook
     * of the context, which {@link RaceExplorer} adds to every exploration.
     */
    @Bean
    IdentifierBlocks frontrunIdentifierBlocks() {
        return new IdentifierBlocks();
    }

    /** Empties Hibernate's second-level cache whenever an exploration puts the database back, as the bean above. */
    @Bean
    SecondLevelCache frontrunSecondLevelCache() {
        return new SecondLevelCache();
    }

    /** The version and time columns Hibernate sets, which the check against the serial orders leaves out. */
    @Bean
    GeneratedColumns frontrunGeneratedColumns() {
        return new GeneratedColumns();
    }

    @Bean
    SerialObservation frontrunSerialObservation(GeneratedColumns columns) {
        return new SerialObservation(columns);
    }

    /** Makes the UUIDs Hibernate generates repeat in every execution of an exploration, as the beans above. */
    @Bean
    RepeatableUuids frontrunRepeatableUuids() {
        return new RepeatableUuids();
    }

    @Bean
    SmartInitializingSingleton frontrunMetamodelReader(
            EntityTables tables,
            IdentifierBlocks identifiers,
            SecondLevelCache cache,
            RepeatableUuids uuids,
            GeneratedColumns columns,
            ObjectProvider<EntityManagerFactory> factories) {
        return () -> factories
                .orderedStream()
                .map(f -> f.unwrap(SessionFactory.class))
                .forEach(f -> {
                    tables.learn(f);
                    identifiers.learn(f);
                    cache.learn(f);
                    uuids.learn(f);
                    columns.learn(f);
                });
    }

    /** Sets {@code frontrun} as the statement inspector, chained after one already configured. */
    static void registerInspector(Map<String, Object> properties, StatementInspector frontrun) {
        StatementInspector configured = configuredInspector(properties.get(STATEMENT_INSPECTOR));
        if (configured == null) {
            properties.put(STATEMENT_INSPECTOR, frontrun);
            return;
        }
        properties.put(STATEMENT_INSPECTOR, (StatementInspector) sql -> {
            String inspected = configured.inspect(sql);
            return frontrun.inspect(inspected == null ? sql : inspected);
        });
    }

    /** The inspector a property value names: an instance, a class, or a class name, as Hibernate accepts. */
    private static StatementInspector configuredInspector(Object value) {
        if (value == null || value instanceof String name && name.isBlank()) {
            return null;
        }
        if (value instanceof StatementInspector inspector) {
            return inspector;
        }
        Class<?> type;
        if (value instanceof Class<?> c) {
            type = c;
        } else {
            try {
                type = ClassUtils.forName(value.toString().trim(), ClassUtils.getDefaultClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException(
                        "cannot load the statement inspector " + STATEMENT_INSPECTOR + "=" + value
                                + " to chain Frontrun's after it",
                        e);
            }
        }
        if (!StatementInspector.class.isAssignableFrom(type)) {
            throw new IllegalStateException(
                    STATEMENT_INSPECTOR + "=" + value + " is not a " + StatementInspector.class.getName());
        }
        return (StatementInspector) BeanUtils.instantiateClass(type);
    }
}

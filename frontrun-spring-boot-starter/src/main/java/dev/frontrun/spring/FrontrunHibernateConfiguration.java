package dev.frontrun.spring;

import dev.frontrun.hibernate.EntityTables;
import dev.frontrun.hibernate.FrontrunStatementInspector;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.SessionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Registers the Hibernate statement inspector and reads the metamodel once the entity manager factory exists. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"org.hibernate.SessionFactory",
        "org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer"})
class FrontrunHibernateConfiguration {

    @Bean
    EntityTables frontrunEntityTables() {
        return new EntityTables();
    }

    @Bean
    HibernatePropertiesCustomizer frontrunStatementInspector(EntityTables tables) {
        return properties -> properties.put("hibernate.session_factory.statement_inspector",
                new FrontrunStatementInspector(tables));
    }

    @Bean
    SmartInitializingSingleton frontrunMetamodelReader(EntityTables tables,
                                                       ObjectProvider<EntityManagerFactory> factories) {
        return () -> factories.orderedStream().forEach(f -> tables.learn(f.unwrap(SessionFactory.class)));
    }
}

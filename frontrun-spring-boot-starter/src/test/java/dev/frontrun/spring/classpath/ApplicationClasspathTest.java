package dev.frontrun.spring.classpath;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.Test;
import org.springframework.util.ClassUtils;

/**
 * Adding Frontrun to a test classpath must not change the application: JSqlParser is shaded into
 * the engine under Frontrun's own package, so Spring Data JPA (which switches to a JSqlParser-based
 * query enhancer when it finds {@code net.sf.jsqlparser}) behaves in tests as in production. And the
 * integrations use only the engine's API, SPI and JDBC entry point, never an internal package.
 */
class ApplicationClasspathTest {

    @Test
    void jsqlParserIsInvisibleToTheApplicationButThereForFrontrun() {
        assertThat(ClassUtils.isPresent("net.sf.jsqlparser.parser.CCJSqlParserUtil", null))
                .as("Spring Data JPA's JSqlParser detection")
                .isFalse();
        assertThat(ClassUtils.isPresent("dev.frontrun.shaded.jsqlparser.parser.CCJSqlParserUtil", null))
                .isTrue();
    }

    /** Byte Buddy is shaded too: the application's own (Hibernate 7 brings one) is the one it loads. */
    @Test
    void frontrunsByteBuddyIsItsOwnAndTheApplicationKeepsItsByteBuddy() throws Exception {
        assertThat(ClassUtils.isPresent("dev.frontrun.shaded.bytebuddy.ByteBuddy", null))
                .isTrue();
        assertThat(ClassUtils.isPresent("dev.frontrun.shaded.bytebuddy.agent.ByteBuddyAgent", null))
                .isTrue();
        Class<?> applications = Class.forName("net.bytebuddy.ByteBuddy");
        assertThat(applications
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toString())
                .as("the application's Byte Buddy comes from its own jar")
                .contains("byte-buddy")
                .doesNotContain("frontrun");
    }

    @Test
    void theIntegrationsUseOnlyTheEnginesApiSpiAndJdbcEntryPoint() {
        JavaClasses integrations = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.frontrun.spring", "dev.frontrun.hibernate", "dev.frontrun.assertj");
        assertThat(integrations).isNotEmpty();
        ArchRuleDefinition.noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.frontrun.internal..")
                .check(integrations);
    }

    /** Options are grouped or set one by one: no constructor of the integrations takes more than eight. */
    @Test
    void noIntegrationConstructorTakesMoreThanEightParameters() {
        JavaClasses integrations = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(
                        "dev.frontrun.spring",
                        "dev.frontrun.hibernate",
                        "dev.frontrun.assertj",
                        "dev.frontrun.nativeio");
        assertThat(integrations).isNotEmpty();
        ArchRuleDefinition.constructors()
                .should(new ArchCondition<JavaConstructor>("take at most 8 parameters") {
                    @Override
                    public void check(JavaConstructor constructor, ConditionEvents events) {
                        int count = constructor.getRawParameterTypes().size();
                        if (count > 8) {
                            events.add(SimpleConditionEvent.violated(
                                    constructor, constructor.getFullName() + " takes " + count + " parameters"));
                        }
                    }
                })
                .check(integrations);
    }
}

package dev.frontrun.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.constructors;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of ARCHITECTURE.md, checked on the engine's production classes: the entry
 * points sit on top, the internals below them, the SPI below the internals, and the API's
 * vocabulary (values every layer speaks) at the bottom; the internal feature packages form no
 * cycle, nor do the engine's own packages; and the public surface outside {@code internal} stays small.
 */
class DependencyRulesTest {

    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.frontrun");

    /** The classes a user starts from; they wire the layers below together. */
    /** The entry points, and the package-private bridge through which the internal runs make results. */
    private static final Set<String> ENTRY_POINTS = Set.of(
            "dev.frontrun.Frontrun",
            "dev.frontrun.Exploration",
            "dev.frontrun.ResultCopies",
            "dev.frontrun.jdbc.FrontrunDataSource");

    private static final DescribedPredicate<JavaClass> ENTRY_POINT =
            describe("an entry point", c -> ENTRY_POINTS.contains(outermost(c).getName()));

    private static final DescribedPredicate<JavaClass> INTERNAL =
            describe("internal", c -> c.getPackageName().startsWith("dev.frontrun.internal"));

    private static final DescribedPredicate<JavaClass> SPI = describe(
            "the SPI",
            c -> c.getPackageName().equals("dev.frontrun.spi")
                    || c.getPackageName().equals("dev.frontrun.jdbc") && !ENTRY_POINT.test(c));

    private static JavaClass outermost(JavaClass c) {
        JavaClass current = c;
        while (current.getEnclosingClass().isPresent()) {
            current = current.getEnclosingClass().get();
        }
        return current;
    }

    @Test
    void theVocabularyDependsOnNothingElseOfFrontrun() {
        noClasses()
                .that()
                .resideInAPackage("dev.frontrun")
                .and(describe("not an entry point", c -> !ENTRY_POINT.test(c)))
                .should()
                .dependOnClassesThat(INTERNAL.or(SPI).or(ENTRY_POINT))
                .check(ENGINE);
    }

    @Test
    void theSpiDependsOnlyOnTheVocabulary() {
        noClasses()
                .that(SPI)
                .should()
                .dependOnClassesThat(INTERNAL.or(ENTRY_POINT))
                .check(ENGINE);
    }

    @Test
    void internalsNeverReachBackToTheEntryPoints() {
        noClasses().that(INTERNAL).should().dependOnClassesThat(ENTRY_POINT).check(ENGINE);
    }

    @Test
    void internalFeaturePackagesFormNoCycle() {
        slices().matching("dev.frontrun.internal.(*)..")
                .should()
                .beFreeOfCycles()
                .check(ENGINE);
    }

    @Test
    void theEngineDoesNotKnowAboutSqlOrReports() {
        noClasses()
                .that()
                .resideInAPackage("dev.frontrun.internal.engine..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.frontrun.internal.sql..",
                        "dev.frontrun.internal.jdbc..",
                        "dev.frontrun.internal.postgres..",
                        "dev.frontrun.internal.anomaly..",
                        "dev.frontrun.internal.report..")
                .check(ENGINE);
    }

    /** The explorer on top; the runner under it; policies and synchronization sites beside each other; the model below. */
    private static final String EXPLORER = "dev.frontrun.internal.engine";

    private static final String RUNNER = "dev.frontrun.internal.engine.run..";
    private static final String SYNC_SITES = "dev.frontrun.internal.engine.sync..";
    private static final String POLICIES = "dev.frontrun.internal.engine.policy..";
    private static final String EXECUTION_MODEL = "dev.frontrun.internal.engine.execution..";

    @Test
    void theExecutionModelKnowsNoOtherPartOfTheEngine() {
        noClasses()
                .that()
                .resideInAPackage(EXECUTION_MODEL)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(EXPLORER, RUNNER, SYNC_SITES, POLICIES)
                .check(ENGINE);
    }

    @Test
    void policiesDecideFromTheExecutionModelAlone() {
        noClasses()
                .that()
                .resideInAPackage(POLICIES)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(EXPLORER, RUNNER, SYNC_SITES)
                .check(ENGINE);
    }

    @Test
    void synchronizationSitesAnnounceStepsWithoutKnowingTheRunnerOrThePolicies() {
        noClasses()
                .that()
                .resideInAPackage(SYNC_SITES)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(EXPLORER, RUNNER, POLICIES)
                .check(ENGINE);
    }

    @Test
    void theRunnerKnowsNeitherTheExplorerNorTheInstrumentedSites() {
        noClasses()
                .that()
                .resideInAPackage(RUNNER)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(EXPLORER, SYNC_SITES)
                .check(ENGINE);
    }

    @Test
    void enginePackagesFormNoCycle() {
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass c) {
                        String name = c.getPackageName();
                        return name.equals(EXPLORER) || name.startsWith(EXPLORER + ".")
                                ? SliceIdentifier.of(name)
                                : SliceIdentifier.ignore();
                    }

                    @Override
                    public String getDescription() {
                        return "the engine's packages";
                    }
                })
                .should()
                .beFreeOfCycles()
                .check(ENGINE);
    }

    @Test
    void theAnomalyClassifierReadsTypedFactsNotTheProxy() {
        noClasses()
                .that()
                .resideInAPackage("dev.frontrun.internal.anomaly..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.frontrun.internal.jdbc..",
                        "dev.frontrun.internal.postgres..",
                        "dev.frontrun.internal.report..")
                .check(ENGINE);
    }

    @Test
    void theSqlPipelineKnowsNothingOfTheProxyTheAnalysisOrTheReports() {
        noClasses()
                .that()
                .resideInAPackage("dev.frontrun.internal.sql..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.frontrun.internal.jdbc..",
                        "dev.frontrun.internal.engine..",
                        "dev.frontrun.internal.anomaly..",
                        "dev.frontrun.internal.report..")
                .check(ENGINE);
    }

    @Test
    void noConstructorTakesMoreThanEightParameters() {
        constructors()
                .should(new ArchCondition<JavaConstructor>("take at most 8 parameters (group them into records)") {
                    @Override
                    public void check(JavaConstructor constructor, ConditionEvents events) {
                        int count = constructor.getRawParameterTypes().size();
                        if (count > 8) {
                            events.add(SimpleConditionEvent.violated(
                                    constructor, constructor.getFullName() + " takes " + count + " parameters"));
                        }
                    }
                })
                .check(ENGINE);
    }

    @Test
    void atMostTwentyFivePublicTypesOutsideInternalPackages() {
        Set<String> exposed = new TreeSet<>();
        for (JavaClass c : ENGINE) {
            if (c.getModifiers().contains(JavaModifier.PUBLIC)
                    && c.isTopLevelClass()
                    && !c.getPackageName().startsWith("dev.frontrun.internal")) {
                exposed.add(c.getName());
            }
        }
        assertThat(exposed).as("the public surface: %s", exposed).hasSizeLessThanOrEqualTo(25);
    }
}

package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Instruments the application's packages when a Frontrun test context is prepared, before the
 * application's classes load (instrumenting as they load is cheaper than retransforming them). Any context of a test JVM does it
 * (whichever context loads the application's classes first, a {@code @FrontrunTest} or not), unless
 * {@code frontrun.instrument.enabled=false}; outside tests, only a context with {@code frontrun.enabled}.
 * Outside an exploration an instrumented site costs one check of the current thread. Registered in
 * {@code META-INF/spring.factories}.
 */
public final class FrontrunInstrumentationListener implements SpringApplicationRunListener {

    /** Present on a test class path: there every context instruments, so the first one to load the classes does. */
    private static final String SPRING_TEST = "org.springframework.test.context.TestContext";

    private final SpringApplication application;

    public FrontrunInstrumentationListener(SpringApplication application, String[] args) {
        this.application = application;
    }

    @Override
    public void contextPrepared(ConfigurableApplicationContext context) {
        ConfigurableEnvironment environment = context.getEnvironment();
        boolean frontrunContext = environment.getProperty("frontrun.enabled", Boolean.class, false);
        if (!frontrunContext
                        && !ClassUtils.isPresent(SPRING_TEST, FrontrunInstrumentationListener.class.getClassLoader())
                || !environment.getProperty("frontrun.instrument.enabled", Boolean.class, true)) {
            return;
        }
        List<String> packages = Binder.get(environment)
                .bind("frontrun.instrument.packages", Bindable.listOf(String.class))
                .orElseGet(this::applicationPackages);
        if (packages.isEmpty()) {
            return;
        }
        try {
            Frontrun.instrument(packages.toArray(String[]::new));
        } catch (IllegalStateException cannotAttach) {
            // the context still starts; an exploration that needs the instrumentation fails with this reason
            System.err.println("Frontrun: " + cannotAttach.getMessage());
        }
    }

    /** The packages of the application's sources marked for auto-configuration ({@code @SpringBootApplication}). */
    private List<String> applicationPackages() {
        List<String> packages = new ArrayList<>();
        for (Object source : application.getAllSources()) {
            if (source instanceof Class<?> type
                    && MergedAnnotations.from(type, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                            .isPresent(AutoConfigurationPackage.class)
                    && !type.getPackageName().isEmpty()) {
                packages.add(type.getPackageName());
            }
        }
        return packages;
    }
}

package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import java.io.IOException;
import java.util.List;
import java.util.TreeSet;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReader;

/**
 * Instruments the application's packages when the test run starts, before JUnit loads any of them.
 * JUnit's discovery loads the test classes and, through their fields and lambdas, the application's classes (instrumenting them as they
 * load is cheaper than retransforming them later). The packages are those of the
 * {@code @SpringBootApplication} classes in the class path's directories (read as class files, nothing
 * loaded), or the system property {@code frontrun.instrument.packages} (comma-separated); the system property
 * {@code frontrun.instrument.enabled=false} turns it off. {@link FrontrunInstrumentationListener} does the
 * same for each context with the application's properties. Registered in {@code META-INF/services}.
 */
public final class FrontrunLauncherSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if ("false".equalsIgnoreCase(System.getProperty("frontrun.instrument.enabled"))) {
            return;
        }
        String configured = System.getProperty("frontrun.instrument.packages");
        List<String> packages = configured != null && !configured.isBlank()
                ? List.of(configured.trim().split("\\s*,\\s*"))
                : applicationPackages();
        if (packages.isEmpty()) {
            return;
        }
        try {
            Frontrun.instrument(packages.toArray(String[]::new));
        } catch (RuntimeException cannotAttach) {
            System.err.println("Frontrun: " + cannotAttach.getMessage());
        }
    }

    /**
     * Packages of the classes in the class path's directories (not its jars) that Spring Boot takes its
     * auto-configuration packages from ({@code @SpringBootApplication}, {@code @EnableAutoConfiguration}).
     */
    static List<String> applicationPackages() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(loader);
        CachingMetadataReaderFactory readers = new CachingMetadataReaderFactory(resolver);
        TreeSet<String> packages = new TreeSet<>();
        try {
            for (Resource resource : resolver.getResources("classpath*:**/*.class")) {
                if (!"file".equals(resource.getURI().getScheme())) {
                    continue;
                }
                MetadataReader reader = readers.getMetadataReader(resource);
                if (reader.getAnnotationMetadata().isAnnotated(AutoConfigurationPackage.class.getName())) {
                    String name = reader.getClassMetadata().getClassName();
                    int dot = name.lastIndexOf('.');
                    if (dot > 0) {
                        packages.add(name.substring(0, dot));
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return List.of(); // the contexts instrument as they start instead
        }
        return List.copyOf(packages);
    }
}

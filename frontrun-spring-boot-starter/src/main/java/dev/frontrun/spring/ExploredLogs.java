package dev.frontrun.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.util.ClassUtils;

/**
 * The logging frameworks of this context whose events an exploration holds ({@link HeldLogs}): Logback and Log4j 2,
 * Spring Boot's two, when the application logs to them. Neither is a dependency the application sees through the
 * starter: each one's classes are loaded only when it is present.
 */
final class ExploredLogs {

    private final List<LogDiversion> diversions;

    private ExploredLogs(List<LogDiversion> diversions) {
        this.diversions = List.copyOf(diversions);
    }

    /** The frameworks the application logs to now. */
    static ExploredLogs inUse() {
        ClassLoader loader = ExploredLogs.class.getClassLoader();
        List<LogDiversion> found = new ArrayList<>();
        if (ClassUtils.isPresent("ch.qos.logback.classic.turbo.TurboFilter", loader)
                && ClassUtils.isPresent("org.slf4j.LoggerFactory", loader)
                && LogbackDiversion.active()) {
            found.add(new LogbackDiversion());
        }
        if (ClassUtils.isPresent("org.apache.logging.log4j.core.LoggerContext", loader) && Log4jDiversion.active()) {
            found.add(new Log4jDiversion());
        }
        return new ExploredLogs(found);
    }

    /** The hook of one exploration: its own buffers, so that explorations side by side never mix their lines. */
    HeldLogs newHook() {
        return new HeldLogs(diversions);
    }
}

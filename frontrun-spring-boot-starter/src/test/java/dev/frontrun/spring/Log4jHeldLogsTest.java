package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Log4j 2, the other logging of Spring Boot: what explored threads log reaches the appenders for the execution the
 * result shows only, with a count of what was held back. A Log4j context of its own, configured here (this test
 * classpath logs through Logback, as Spring Boot's default), and an exploration of the plain API with the starter's hook.
 */
class Log4jHeldLogsTest {

    /** What reached the appender: the messages, and the threads that logged them. */
    private static final class Kept extends AbstractAppender {
        final List<String> lines = new CopyOnWriteArrayList<>();

        Kept() {
            super("kept", null, null, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            lines.add(event.getThreadName() + ": " + event.getMessage().getFormattedMessage());
        }
    }

    static final class Counter {
        int value;
    }

    private LoggerContext context;
    private Kept kept;
    private Logger log;

    @BeforeEach
    void log4j() {
        context = new LoggerContext("frontrun-held-logs-test");
        Configuration configuration = context.getConfiguration();
        kept = new Kept();
        kept.start();
        configuration.addAppender(kept);
        LoggerConfig root = configuration.getRootLogger();
        root.getAppenders().keySet().forEach(root::removeAppender);
        root.addAppender(kept, Level.INFO, null);
        root.setLevel(Level.INFO);
        context.updateLoggers();
        log = context.getLogger("app");
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    private void increment(Counter counter) {
        log.warn("incrementing from {}", counter.value);
        log.debug("below the level: never held, never counted");
        Frontrun.access("counter", Access.READ);
        int read = counter.value;
        Frontrun.access("counter", Access.WRITE);
        counter.value = read + 1;
    }

    @Test
    void theFailingExecutionsLinesReachTheAppenderAndTheOthersAreCounted() {
        HeldLogs held = new HeldLogs(List.of(new Log4jDiversion(context)));
        log.warn("before the exploration");
        Exploration<Counter> exploration = Frontrun.explore(Counter::new)
                .thread("alice", this::increment)
                .thread("bob", this::increment)
                .invariant(counter -> counter.value == 2, "both increments")
                .reproduceOnFailure(2)
                .reportDirectory(null)
                .hook(held);

        Result result = exploration.run();
        log.warn("after the exploration");

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        int executions = result.executions() + result.reproduceAttempts();
        assertThat(executions).isGreaterThan(2);
        assertThat(kept.lines)
                .containsExactly(
                        "main: before the exploration",
                        "alice: incrementing from 0",
                        "bob: incrementing from 0",
                        "main: after the exploration");
        assertThat(held.heldBack()).isEqualTo(2L * (executions - 1));
        assertThat(context.getConfiguration().getFilter())
                .as("the filter is gone with the exploration")
                .isNull();
    }

    @Test
    void withoutAnExplorationNothingIsHeld() {
        Appender appender = kept;
        log.warn("logged");

        assertThat(kept.lines).containsExactly(Thread.currentThread().getName() + ": logged");
        assertThat(appender.isStarted()).isTrue();
    }
}

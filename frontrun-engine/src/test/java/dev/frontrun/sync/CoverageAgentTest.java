package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.LoggerRuntime;
import org.jacoco.core.runtime.RuntimeData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A coverage agent's bookkeeping is not application state: a class as JaCoCo's agent rewrites it (a probe array
 * stored into in every method) explores exactly the executions the class as compiled does.
 */
class CoverageAgentTest {

    private static final String PACKAGE = "dev.frontrun.sync.covered";
    private static final String FIXTURE = PACKAGE + ".CoveredTally";

    private static final LoggerRuntime RUNTIME = new LoggerRuntime();

    @BeforeAll
    static void startCoverage() throws Exception {
        RUNTIME.startup(new RuntimeData());
    }

    @AfterAll
    static void stopCoverage() {
        RUNTIME.shutdown();
    }

    @Test
    void aReadThenWriteRaceHasItsFourTracesWithProbesToo() {
        same(
                s -> {
                    s.increment();
                },
                s -> s.total() == 2,
                4);
    }

    @Test
    void aMonitorRaceHasItsTwoOrdersWithProbesToo() {
        Result plain = explore(compiled(), s -> s.claim("alice"), s -> s.claim("bob"), s -> "alice".equals(s.winner()));
        Result covered =
                explore(covered(), s -> s.claim("alice"), s -> s.claim("bob"), s -> "alice".equals(s.winner()));

        assertThat(covered.verdict())
                .as(covered.explanation())
                .isEqualTo(Verdict.FAILS)
                .isEqualTo(plain.verdict());
        assertThat(covered.executions()).isEqualTo(plain.executions()).isEqualTo(2);
    }

    @Test
    void aMapKeyCheckThenPutRaceHasItsTracesWithProbesToo() {
        same(s -> s.register("k"), s -> s.registrations() == 1, 6);
    }

    private void same(ThreadBodyOf body, Predicate<Tally> invariant, int executions) {
        Result plain = explore(compiled(), body, body, invariant);
        Result covered = explore(covered(), body, body, invariant);

        assertThat(plain.verdict()).as(plain.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(covered.verdict()).as(covered.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(plain.executions()).isEqualTo(executions);
        assertThat(covered.executions()).as("with JaCoCo's probes").isEqualTo(executions);
    }

    private interface ThreadBodyOf {
        void run(Tally tally);
    }

    private static Result explore(
            Supplier<Tally> setup, ThreadBodyOf alice, ThreadBodyOf bob, Predicate<Tally> invariant) {
        return Frontrun.explore(setup)
                .instrument(PACKAGE)
                .thread("alice", alice::run)
                .thread("bob", bob::run)
                .invariant(invariant)
                .stopOnFirstFailure(false)
                .run();
    }

    private static Supplier<Tally> compiled() {
        return instances(new FixtureLoader(original()));
    }

    private static Supplier<Tally> covered() {
        try {
            return instances(new FixtureLoader(new Instrumenter(RUNTIME).instrument(original(), FIXTURE)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Supplier<Tally> instances(FixtureLoader loader) {
        return () -> {
            try {
                return (Tally) loader.loadClass(FIXTURE).getConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private static byte[] original() {
        try (InputStream in =
                CoverageAgentTest.class.getClassLoader().getResourceAsStream(FIXTURE.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Defines the fixture from the given bytes itself; everything else comes from the test's loader. */
    private static final class FixtureLoader extends ClassLoader {

        private final byte[] fixture;

        FixtureLoader(byte[] fixture) {
            super(CoverageAgentTest.class.getClassLoader());
            this.fixture = fixture;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(FIXTURE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : defineClass(name, fixture, 0, fixture.length);
            }
        }
    }
}

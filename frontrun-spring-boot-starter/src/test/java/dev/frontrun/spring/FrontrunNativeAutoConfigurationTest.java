package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The switch {@code frontrun.native}, in this test JVM, which is not preloaded: {@code auto} warns once per JVM
 * and explores without the check, {@code required} refuses to start an exploration with the
 * {@code LD_PRELOAD} line to use, {@code off} is silent.
 */
@ExtendWith(OutputCaptureExtension.class)
class FrontrunNativeAutoConfigurationTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(FrontrunNativeAutoConfiguration.class))
            .withPropertyValues("frontrun.enabled=true");

    @BeforeAll
    static void notPreloaded() {
        assertThat(NativeIo.interceptionActive())
                .as("this test JVM is started without LD_PRELOAD")
                .isFalse();
    }

    @Test
    void autoIsTheDefaultAndWarnsOncePerJvmHoweverManyContextsStart(CapturedOutput output) {
        contexts.run(
                context -> assertThat(context.getBean(NativeLayer.class).mode()).isEqualTo(NativeMode.AUTO));
        contexts.run(context -> assertThat(context.getBean(NativeLayer.class).hooksFor(new PGSimpleDataSource()))
                .hasSize(1));

        assertThat(FrontrunNativeAutoConfiguration.UnavailableWarning.TEXT)
                .get()
                .asString()
                .startsWith("frontrun.native=auto: explorations will not check that every statement went through"
                        + " Frontrun's JDBC proxy, nor explore the orders of requests to other services")
                .contains("LD_PRELOAD=");
        // said when the first context of the JVM started: here, or in an earlier test of this JVM
        assertThat(output.getOut().split("frontrun.native=auto: explorations will not check", -1).length - 1)
                .as("two contexts, one JVM")
                .isLessThanOrEqualTo(1);
    }

    @Test
    void requiredRefusesToStartAnExplorationNamingThePreloadLine(CapturedOutput output) {
        contexts.withPropertyValues("frontrun.native=required").run(context -> {
            List<ExplorationHook> hooks = context.getBean(NativeLayer.class).hooksFor(new PGSimpleDataSource());
            assertThat(hooks).hasSize(1);
            assertThatThrownBy(() -> hooks.get(0).beforeExploration())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(
                            "frontrun.native=required, but Frontrun native I/O interception is not active")
                    .hasMessageContaining("LD_PRELOAD=")
                    .hasMessageContaining("libfrontrun_io.so");
        });
        assertThat(output.getOut()).doesNotContain("frontrun.native=auto");
    }

    @Test
    void offNeverChecksAndSaysNothing(CapturedOutput output) {
        contexts.withPropertyValues("frontrun.native=off")
                .run(context -> assertThat(context.getBean(NativeLayer.class).hooksFor(new PGSimpleDataSource()))
                        .isEmpty());
        assertThat(output.getOut()).doesNotContain("frontrun.native");
    }

    @Test
    void anUnknownValueFailsTheContext() {
        contexts.withPropertyValues("frontrun.native=sometimes")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasStackTraceContaining("frontrun.native=sometimes is not one of off, auto, required"));
    }
}

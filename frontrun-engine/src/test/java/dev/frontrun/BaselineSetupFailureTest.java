package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A setup that fails makes {@link Exploration#baseline(int)} fail with what it threw, whatever it threw: a checked
 * exception thrown without being declared (Kotlin, Lombok's {@code @SneakyThrows}) too, not a round measured as if the
 * work had run.
 */
class BaselineSetupFailureTest {

    @Test
    void aCheckedExceptionFromTheSetupEndsTheBaseline() {
        Supplier<Object> failing = () -> sneaky(new IOException("the fixture file is missing"));
        Exploration<Object> exploration =
                Frontrun.explore(failing).thread("a", s -> {}).thread("b", s -> {});

        assertThatThrownBy(() -> exploration.baseline(1))
                .isInstanceOf(IOException.class)
                .hasMessage("the fixture file is missing");
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> Object sneaky(Throwable t) throws T {
        throw (T) t;
    }
}

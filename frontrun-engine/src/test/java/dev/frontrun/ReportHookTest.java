package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.spi.ExplorationHook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hooks learn where the report of a run and of a replay was written, and which of the two wrote it. */
class ReportHookTest {

    static final class Counter {
        int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }
    }

    private record Written(Path report, boolean replay) {}

    @Test
    void hooksAreToldOfEveryReportWrittenAndWhetherAReplayWroteIt(@TempDir Path reports) {
        List<Written> written = new ArrayList<>();
        Exploration<Counter> exploration = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value == 2, "counter == 2")
                .reproduceOnFailure(0)
                .reportDirectory(reports)
                .hook(new ExplorationHook() {
                    @Override
                    public void reportWritten(Path report, boolean replay) {
                        written.add(new Written(report, replay));
                    }
                });

        Result explored = exploration.run();
        Result replayed = exploration.replay(explored.counterexample().orElseThrow());

        assertThat(written)
                .containsExactly(
                        new Written(explored.report().orElseThrow(), false),
                        new Written(replayed.report().orElseThrow(), true));
        assertThat(replayed.report())
                .as("a replay is added to the exploration's report")
                .isEqualTo(explored.report());
    }

    @Test
    void noReportNoCall() {
        List<Path> written = new ArrayList<>();
        Result holds = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .hook(new ExplorationHook() {
                    @Override
                    public void reportWritten(Path report, boolean replay) {
                        written.add(report);
                    }
                })
                .run();

        assertThat(holds.propertyHolds()).isTrue();
        assertThat(written).isEmpty();
    }
}

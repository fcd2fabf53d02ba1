package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A report reaches the sink of the test whose thread wrote it, and only while that test listens. */
class ReportSinksTest {

    private final ReportSinks sinks = new ReportSinks();

    @Test
    void theExplorationsFirstReportWinsOverAReplaysAndLaterOnes() {
        ReportSink sink = new ReportSink();
        sinks.listen(sink);

        sinks.reportWritten(Path.of("replay-1.html"), true);
        assertThat(sink.report()).as("a replay's, while there is nothing else").contains(Path.of("replay-1.html"));
        sinks.reportWritten(Path.of("run-1.html"), false);
        sinks.reportWritten(Path.of("run-2.html"), false);
        sinks.reportWritten(Path.of("replay-2.html"), true);

        assertThat(sink.report()).contains(Path.of("run-1.html"));
    }

    @Test
    void reportsWrittenOnAnotherThreadOrAfterTheTestGoElsewhere() throws Exception {
        ReportSink mine = new ReportSink();
        ReportSink theirs = new ReportSink();
        sinks.listen(mine);
        Thread other = new Thread(() -> {
            sinks.listen(theirs);
            sinks.reportWritten(Path.of("theirs.html"), false);
        });
        other.start();
        other.join();
        sinks.stopListening(mine);
        sinks.reportWritten(Path.of("after-my-test.html"), false);

        assertThat(mine.report()).isEmpty();
        assertThat(theirs.report()).contains(Path.of("theirs.html"));
    }
}

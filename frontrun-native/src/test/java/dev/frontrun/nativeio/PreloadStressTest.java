package dev.frontrun.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Robustness under concurrency: many threads doing socket I/O under the preload, with the event
 * ring drained concurrently. No crash, and every count the interposer reports adds up exactly to
 * the bytes the threads really moved: first in C through every interposed call, then in Java
 * through the JNA bridge.
 */
class PreloadStressTest {

    @BeforeAll
    static void linuxOnly() {
        LinuxOnly.assumeLinux();
    }

    @Test
    void cThreadsThroughEveryHookCountExactly() throws Exception {
        Path harness = Path.of(System.getProperty("frontrun.native.testDir", "target/native-test"), "io_stress");
        assertThat(harness).as("the C test harness built by build.sh").isExecutable();

        ChildProcess.Output child = ChildProcess.run(List.of(harness.toString()), ChildProcess.preloadEnvironment());

        assertThat(child.exitCode()).as(child.text()).isZero();
        assertThat(child.text()).contains("io_stress: OK").doesNotContain("FAIL");
    }

    @Test
    void javaThreadsCountExactlyThroughTheBridge() throws Exception {
        ChildProcess.Output child = ChildProcess.javaMain(LoopbackEchoMain.class);
        assertThat(child.exitCode()).as(child.text()).isZero();

        List<Map<String, String>> clients = child.lines("client");
        assertThat(clients).as(child.text()).hasSize(LoopbackEchoMain.CLIENTS);
        for (Map<String, String> client : clients) {
            long sent = number(client, "sentBytes");
            long received = number(client, "receivedBytes");
            assertThat(sent).isPositive().isEqualTo(received);
            assertThat(number(client, "outBytes"))
                    .as("bytes counted for %s", client)
                    .isEqualTo(sent);
            assertThat(number(client, "inBytes"))
                    .as("bytes counted for %s", client)
                    .isEqualTo(received);
            assertThat(number(client, "outCalls")).isGreaterThanOrEqualTo(LoopbackEchoMain.ITERATIONS);
            assertThat(number(client, "connects")).isEqualTo(1);
            assertThat(number(client, "closes")).isEqualTo(1);
            assertThat(number(client, "eventOutBytes"))
                    .as("events of %s", client)
                    .isEqualTo(sent);
            assertThat(number(client, "eventInBytes"))
                    .as("events of %s", client)
                    .isEqualTo(received);
        }
        Map<String, String> events = child.line("events");
        assertThat(number(events, "dropped")).isZero();
        assertThat(number(events, "foreign"))
                .as("only the clients talk to the watched port")
                .isZero();
    }

    private static long number(Map<String, String> fields, String key) {
        assertThat(fields).containsKey(key);
        return Long.parseLong(fields.get(key));
    }
}

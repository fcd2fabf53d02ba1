package dev.frontrun.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Starting a subprocess from a preloaded JVM keeps the parent's socket tracking intact, whichever
 * launch mechanism the JDK uses; VFORK is the hard one, as the child closes fds in shared memory.
 */
class SubprocessTest {

    @BeforeAll
    static void linuxOnly() {
        LinuxOnly.assumeLinux();
    }

    @ParameterizedTest
    @ValueSource(strings = {"POSIX_SPAWN", "FORK", "VFORK"})
    void subprocessLeavesTheParentsSocketsTracked(String mechanism) throws Exception {
        ChildProcess.Output child = ChildProcess.javaMain(
                List.of("-Djdk.lang.Process.launchMechanism=" + mechanism), SpawnKeepsTrackingMain.class);
        assertThat(child.exitCode()).as(child.text()).isZero();

        Map<String, String> spawn = child.line("spawn");
        assertThat(spawn)
                .as(child.text())
                .containsEntry("mechanism", mechanism)
                .containsEntry("exit", "0")
                .containsEntry("socketsBefore", "1")
                .containsEntry("socketsAfter", "1")
                .containsEntry("outBytesAfter", "30");
    }
}

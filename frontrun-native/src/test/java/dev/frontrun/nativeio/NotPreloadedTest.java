package dev.frontrun.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The test JVM itself runs without the interposer: interception must be reported inactive, and
 * every way of asking for I/O must fail loudly with the LD_PRELOAD line to fix it, never answer
 * "no I/O".
 */
class NotPreloadedTest {

    @BeforeAll
    static void linuxOnly() {
        LinuxOnly.assumeLinux();
    }

    @Test
    void interceptionIsReportedInactive() {
        assertThat(NativeIo.interceptionActive()).isFalse();
    }

    @Test
    void requireActiveNamesTheExactPreloadLine() {
        Path library = NativeIo.libraryFile().orElseThrow();
        assertThat(library).isRegularFile();
        assertThatThrownBy(NativeIo::requireActive)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not active")
                .hasMessageContaining("LD_PRELOAD=" + library.toAbsolutePath());
    }

    @Test
    void everyReadingOfIoFailsInsteadOfReportingNone() {
        assertThatThrownBy(() -> NativeIo.snapshot(5432))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("LD_PRELOAD");
        assertThatThrownBy(() -> NativeIo.sockets(5432)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(NativeIo::drainEvents).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> NativeIo.watchPort(5432)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(NativeIo::recordEvents).isInstanceOf(IllegalStateException.class);
    }

    /** JNA's native code stays unloaded: on JDK 22 and later, loading it warns about native access in the test JVM. */
    @Test
    void withoutThePreloadNothingLoadsJnasNativeCode() throws Exception {
        ChildProcess.Output child = ChildProcess.run(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        NotPreloadedMain.class.getName()),
                Map.of());

        assertThat(child.exitCode()).as(child.text()).isZero();
        assertThat(child.line("notPreloaded"))
                .as(child.text())
                .containsEntry("active", "false")
                .containsEntry("jnaLoaded", "false");
    }

    @Test
    void theLibraryOnTheClasspathIsAnElfSharedObject() throws Exception {
        byte[] header = Files.readAllBytes(NativeIo.libraryFile().orElseThrow());
        assertThat(header).startsWith(0x7f, 'E', 'L', 'F');
    }
}

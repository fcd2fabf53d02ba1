package dev.frontrun.nativeio;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;

/** The one assumption these tests make: the interposer exists on Linux only. */
final class LinuxOnly {

    private LinuxOnly() {}

    static void assumeLinux() {
        assumeTrue(
                Platform.isLinux(),
                () -> "frontrun-native: LD_PRELOAD interception is Linux-only"
                        + " (macOS DYLD_INSERT_LIBRARIES is not supported yet); skipping on "
                        + System.getProperty("os.name"));
    }
}

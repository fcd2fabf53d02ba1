package dev.frontrun.nativeio;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the interposer is really preloaded into this JVM and intercepting, decided once.
 *
 * <p>Three checks, each of which a plausible misconfiguration fails: the library's symbols are in
 * the process's global scope (LD_PRELOAD named it and ld.so loaded it); the process's
 * read/write/connect/close/poll resolve to it, not to libc (it is interposing, not merely loaded);
 * and a real write through the process's {@code write} symbol is seen by its hook (end to end).
 */
final class Interception {

    private final FrontrunIoLibrary library;
    private final String problem;
    private final String loadedFrom;

    private Interception(FrontrunIoLibrary library, String problem, String loadedFrom) {
        this.library = library;
        this.problem = problem;
        this.loadedFrom = loadedFrom;
    }

    boolean active() {
        return library != null;
    }

    /** The bound library; only when {@link #active()}. */
    FrontrunIoLibrary library() {
        return library;
    }

    /** Where the preloaded library was loaded from; only when {@link #active()}. */
    String loadedFrom() {
        return loadedFrom;
    }

    /** Why interception is not active; only when not {@link #active()}. */
    String problem() {
        return problem;
    }

    static Interception detect() {
        if (!Platform.isLinux()) {
            return inactive("LD_PRELOAD interception is Linux-only, and this is " + System.getProperty("os.name"));
        }
        if (!namedForPreloading()) {
            // not even named: nothing to look for, and JNA's native code is left unloaded (on JDK 22+ loading it
            // warns about native access in every test JVM that never preloaded the library)
            return inactive(notLoaded());
        }
        try {
            NativeLibrary.getProcess().getFunction("frontrun_io_active");
        } catch (UnsatisfiedLinkError e) {
            return inactive(notLoaded());
        } catch (LinkageError e) {
            return inactive("JNA cannot run here: " + e);
        }
        FrontrunIoLibrary library = Native.load(FrontrunIoLibrary.class);
        String path = library.frontrun_io_library_path();
        int magic = library.frontrun_io_active();
        if (magic == 0) {
            return inactive(LibraryFile.FILE_NAME + " is loaded (from " + path + ") but the process's libc calls "
                    + "do not resolve to it, so it intercepts nothing; it must be preloaded, not loaded later");
        }
        if (magic != FrontrunIoLibrary.MAGIC) {
            return inactive(String.format(
                    "the preloaded %s (%s) speaks ABI %#x, this bridge expects %#x: "
                            + "preload the library from the same frontrun-native version",
                    LibraryFile.FILE_NAME, path, magic, FrontrunIoLibrary.MAGIC));
        }
        int probe = library.frontrun_io_probe();
        if (probe != 1) {
            return inactive(
                    probe == 0
                            ? "the preloaded " + LibraryFile.FILE_NAME
                                    + " did not see a probe write through the process's write()"
                            : "the interception probe failed with errno " + (-probe));
        }
        return new Interception(library, null, path);
    }

    /**
     * Whether the dynamic linker was asked to preload the library at all: {@code LD_PRELOAD} or the system-wide
     * {@code /etc/ld.so.preload} names its file.
     */
    private static boolean namedForPreloading() {
        String preload = System.getenv("LD_PRELOAD");
        if (preload != null && preload.contains(LibraryFile.FILE_NAME)) {
            return true;
        }
        try {
            Path systemWide = Path.of("/etc/ld.so.preload");
            return Files.isReadable(systemWide) && Files.readString(systemWide).contains(LibraryFile.FILE_NAME);
        } catch (IOException | RuntimeException e) {
            return true; // cannot tell: ask the process itself, as before
        }
    }

    private static Interception inactive(String problem) {
        return new Interception(null, problem, null);
    }

    private static String notLoaded() {
        String preload = System.getenv("LD_PRELOAD");
        if (preload == null || preload.isBlank()) {
            return "LD_PRELOAD is not set";
        }
        if (preload.contains(LibraryFile.FILE_NAME)) {
            return "LD_PRELOAD=" + preload + " names " + LibraryFile.FILE_NAME
                    + " but the dynamic linker did not load it "
                    + "(wrong path or architecture? ld.so reports 'cannot be preloaded' on stderr at startup)";
        }
        return "LD_PRELOAD=" + preload + " does not include " + LibraryFile.FILE_NAME;
    }
}

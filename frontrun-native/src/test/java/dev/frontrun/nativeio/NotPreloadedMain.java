package dev.frontrun.nativeio;

import dev.frontrun.nativeio.proxycheck.NativeMode;

/**
 * A JVM started without the interposer asks whether interception is active and what {@code frontrun.native=auto}
 * adds to an exploration, then says whether JNA's native code got loaded: {@code notPreloaded active=false
 * jnaLoaded=false}.
 */
public final class NotPreloadedMain {

    private NotPreloadedMain() {}

    public static void main(String[] args) {
        boolean active = NativeIo.interceptionActive();
        NativeIo.inactiveReason();
        NativeMode.AUTO.hooksFor(null);
        System.out.println("notPreloaded active=" + active + " jnaLoaded=" + Boolean.getBoolean("jna.loaded"));
    }
}

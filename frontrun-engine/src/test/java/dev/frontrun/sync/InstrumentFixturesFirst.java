package dev.frontrun.sync;

import dev.frontrun.Frontrun;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Instruments the test fixtures' package when the test run starts, before JUnit's discovery loads any
 * fixture (reflecting on a test class loads the types of its lambdas' parameters), as the Spring starter
 * does before a context starts. Registered in {@code META-INF/services}.
 */
public final class InstrumentFixturesFirst implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        Frontrun.instrument("dev.frontrun.sync.fixtures");
    }
}

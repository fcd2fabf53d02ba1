package dev.frontrun.nativeio.proxycheck;

import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.spi.ExplorationHook;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The one switch for Frontrun's native layer, {@code frontrun.native}: whether explorations check
 * the database traffic beneath JDBC with the preloaded {@code libfrontrun_io.so}
 * ({@link ProxyCrossCheck}).
 */
public enum NativeMode {

    /** Never use the native layer. */
    OFF,
    /** Use it when the library is preloaded; without it, explore without the check (integrations warn once). */
    AUTO,
    /** Refuse to start an exploration unless the library is preloaded, naming the {@code LD_PRELOAD} line to use. */
    REQUIRED;

    /** The name of the switch, as a system property and as a Spring property. */
    public static final String PROPERTY = "frontrun.native";

    /** The mode a value of {@code frontrun.native} names ({@code off}, {@code auto}, {@code required}); blank is {@link #AUTO}. */
    public static NativeMode parse(String value) {
        if (value == null || value.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + "=" + value + " is not one of off, auto, required", e);
        }
    }

    /** The mode the system property {@code frontrun.native} sets, {@link #AUTO} if none. */
    public static NativeMode fromSystemProperty() {
        return parse(System.getProperty(PROPERTY));
    }

    /**
     * Why the native layer is not available in this JVM (not preloaded, or not Linux, with the
     * {@code LD_PRELOAD=} line to use), or empty when it is.
     */
    public static Optional<String> unavailableReason() {
        return NativeIo.inactiveReason();
    }

    /**
     * What to add to an exploration against {@code dataSource} in this mode: the cross-check when the
     * library is preloaded (and the mode is not {@link #OFF}); under {@link #REQUIRED} without it, a
     * hook that refuses to start the exploration; otherwise nothing.
     */
    public Optional<ExplorationHook> hookFor(DataSource dataSource) {
        if (this == OFF) {
            return Optional.empty();
        }
        Optional<String> unavailable = unavailableReason();
        if (unavailable.isEmpty()) {
            return Optional.of(new ProxyCrossCheck(dataSource));
        }
        return this == REQUIRED ? Optional.of(new Refusal(unavailable.get())) : Optional.empty();
    }

    /** Refuses to start an exploration: {@code frontrun.native=required} and the library is not preloaded. */
    private static final class Refusal implements ExplorationHook {
        private final String reason;

        Refusal(String reason) {
            this.reason = reason;
        }

        @Override
        public void beforeExploration() {
            throw new IllegalStateException(PROPERTY + "=required, but " + reason);
        }
    }
}

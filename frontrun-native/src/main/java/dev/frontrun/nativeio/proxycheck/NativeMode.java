package dev.frontrun.nativeio.proxycheck;

import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.endpoints.EndpointFeed;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The one switch for Frontrun's native layer, {@code frontrun.native}. Whether explorations use the
 * preloaded {@code libfrontrun_io.so} beneath JDBC — to check that the database traffic went through
 * the proxy ({@link ProxyCrossCheck}) and to explore the orders of requests to other services
 * ({@link EndpointFeed}).
 */
public enum NativeMode {

    /** Never use the native layer. */
    OFF,
    /**
     * Use it when the library is preloaded; without it, explore without it, and a result whose explored threads talked
     * to a socket other than the database's says that their requests went unexplored ({@code Result.notExplored()};
     * integrations also warn once that neither those requests nor SQL sent around the proxy are explored).
     */
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
     * What to add to an exploration against {@code dataSource} (null: an exploration without a
     * database) in this mode. With the library preloaded (and the mode not {@link #OFF}), the
     * cross-check of the proxy (with a database) and the requests to other services as scheduling
     * points; under {@link #REQUIRED} without it, a hook that refuses to start the exploration; under
     * {@link #AUTO} without it, a hook that tells the result when the explored threads talked to other services
     * ({@link UnseenSockets}); under {@link #OFF}, nothing.
     */
    public List<ExplorationHook> hooksFor(DataSource dataSource) {
        if (this == OFF) {
            return List.of();
        }
        Optional<String> unavailable = unavailableReason();
        if (unavailable.isEmpty()) {
            EndpointFeed requests = new EndpointFeed(dataSource);
            return dataSource == null ? List.of(requests) : List.of(new ProxyCrossCheck(dataSource), requests);
        }
        return List.of(
                this == REQUIRED ? new Refusal(unavailable.get()) : new UnseenSockets(unavailable.get(), dataSource));
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

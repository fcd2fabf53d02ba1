package dev.frontrun.spring;

import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The switch {@code frontrun.native=off|auto|required}: whether explorations look beneath the JDK.
 * It decides whether a Frontrun test context's
 * explorations check, with the preloaded {@code libfrontrun_io.so}, that every statement an explored
 * thread sends to PostgreSQL went through the JDBC proxy, and explore the orders of their requests to
 * other services over sockets. {@code auto} (the default) does when the library is preloaded and, when
 * it is not, warns once per JVM and has a result say what went unexplored when its explored threads talked to
 * another service; {@code required} refuses to start an exploration without it, naming the {@code LD_PRELOAD} line
 * to use; {@code off} never checks.
 */
@AutoConfiguration
@ConditionalOnClass(NativeIo.class)
@ConditionalOnProperty(prefix = "frontrun", name = "enabled", havingValue = "true")
public class FrontrunNativeAutoConfiguration {

    @Bean
    NativeLayer frontrunNativeLayer(Environment environment) {
        NativeMode mode = NativeMode.parse(environment.getProperty(NativeMode.PROPERTY));
        if (mode == NativeMode.AUTO) {
            UnavailableWarning.said();
        }
        return new NativeLayer(mode);
    }

    /**
     * Said once per JVM, when the first context with {@code frontrun.native=auto} starts.
     * Whether the library is
     * preloaded is the JVM's, whatever the context, and every cached test context would say it again.
     */
    static final class UnavailableWarning {

        private static final Log LOG = LogFactory.getLog(FrontrunNativeAutoConfiguration.class);

        /** The warning, if the library is not preloaded: logged as this class initialises, once per JVM. */
        static final Optional<String> TEXT = NativeMode.unavailableReason()
                .map(reason -> "frontrun.native=auto:"
                        + " explorations will not check that every statement went through Frontrun's JDBC proxy, nor explore"
                        + " the orders of requests to other services (a result whose explored threads talked to another service"
                        + " names it under 'not explored'). Said once per JVM. " + reason);

        static {
            TEXT.ifPresent(LOG::warn);
        }

        private UnavailableWarning() {}

        /** Makes sure the warning was said. */
        static void said() {
            // the class initialiser says it, the first time only
        }
    }
}

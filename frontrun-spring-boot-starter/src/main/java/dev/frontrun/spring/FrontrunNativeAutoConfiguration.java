package dev.frontrun.spring;

import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The switch {@code frontrun.native=off|auto|required} of a Frontrun test context: whether its
 * explorations check, with the preloaded {@code libfrontrun_io.so}, that every statement an explored
 * thread sends to PostgreSQL went through the JDBC proxy, and explore the orders of their requests to
 * other services over sockets. {@code auto} (the default) does when the library is preloaded and, when
 * it is not, warns once per context and has every result say what went unexplored; {@code required} refuses to start
 * an exploration without it, naming the {@code LD_PRELOAD} line to use; {@code off} never checks.
 */
@AutoConfiguration
@ConditionalOnClass(NativeIo.class)
@ConditionalOnProperty(prefix = "frontrun", name = "enabled", havingValue = "true")
public class FrontrunNativeAutoConfiguration {

    private static final Log LOG = LogFactory.getLog(FrontrunNativeAutoConfiguration.class);

    @Bean
    NativeLayer frontrunNativeLayer(Environment environment) {
        NativeMode mode = NativeMode.parse(environment.getProperty(NativeMode.PROPERTY));
        if (mode == NativeMode.AUTO) {
            NativeMode.unavailableReason().ifPresent(reason -> LOG.warn("frontrun.native=auto: explorations will not"
                    + " check that every statement went through Frontrun's JDBC proxy, nor explore the orders of"
                    + " requests to other services (each result lists this under 'not explored'). " + reason));
        }
        return new NativeLayer(mode);
    }
}

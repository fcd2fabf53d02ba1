package dev.frontrun.spring;

import dev.frontrun.nativeio.Hold;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.redis.FrontrunRedis;
import java.util.ArrayList;
import java.util.List;
import org.springframework.util.ClassUtils;

/**
 * Keeps Frontrun's native layer from counting Redis commands twice. Their clients' commands are explored by key, so
 * the socket traffic beneath them (sent on Lettuce's own threads, or by the restore) is neither a request to another
 * service nor one nobody explored, as the database's traffic is not.
 */
final class RedisBeneathJdbc {

    private static final boolean NATIVE =
            ClassUtils.isPresent("dev.frontrun.nativeio.NativeIo", RedisBeneathJdbc.class.getClassLoader());

    private final List<AutoCloseable> holds = new ArrayList<>();

    /** Stops the native layer from telling requests to {@code servers}' ports, when it is preloaded. */
    void ignore(List<FrontrunRedis> servers) {
        if (NATIVE) {
            Native.ignore(servers, holds);
        }
    }

    /** Tells them again. */
    void release() {
        for (AutoCloseable hold : holds) {
            try {
                hold.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        holds.clear();
    }

    /** The native layer's side, loaded only when frontrun-native is on the classpath. */
    private static final class Native {
        static void ignore(List<FrontrunRedis> servers, List<AutoCloseable> holds) {
            if (!NativeIo.interceptionActive()) {
                return;
            }
            for (FrontrunRedis server : servers) {
                Hold hold = NativeIo.ignoreRequestsTo(server.port());
                holds.add(hold);
            }
        }
    }
}

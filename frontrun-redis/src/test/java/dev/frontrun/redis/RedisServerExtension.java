package dev.frontrun.redis;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class's tests a real Redis server ({@link RedisServer} parameters): one server per test class, started
 * on a free port before its first test, emptied before every test, stopped after the last.
 */
final class RedisServerExtension implements ParameterResolver, BeforeEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisServerExtension.class);

    /** Closes the server when the class's store is closed. */
    private record Running(RedisServer server) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return server(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        server(context).flushAll();
    }

    private static RedisServer server(ExtensionContext context) {
        ExtensionContext classContext =
                context.getRoot().equals(context.getParent().orElse(null))
                        ? context
                        : context.getParent().orElse(context);
        while (classContext.getTestMethod().isPresent()
                && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        "server",
                        k -> {
                            try {
                                return new Running(RedisServer.start());
                            } catch (java.io.IOException e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        Running.class)
                .server();
    }
}

package dev.frontrun.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that hands each test class a fresh {@link TestDatabase} on the shared server,
 * dropped again when the class is done. Use {@code @ExtendWith(PostgresExtension.class)} and a
 * {@code TestDatabase} parameter on a test method, a lifecycle method or the constructor.
 */
public final class PostgresExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(PostgresExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestDatabase.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent()
                && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        Class<?> testClass = classContext.getRequiredTestClass();
        return classContext
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        testClass, c -> new DroppedOnClose(TestPostgres.freshDatabase(c)), DroppedOnClose.class)
                .database();
    }

    private record DroppedOnClose(TestDatabase database) implements AutoCloseable {
        @Override
        public void close() {
            TestPostgres.drop(database);
        }
    }
}

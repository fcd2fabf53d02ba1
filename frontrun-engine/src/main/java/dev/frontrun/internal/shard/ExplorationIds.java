package dev.frontrun.internal.shard;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The default id of an exploration in shard reports: {@code <test class>.<method>} of the test that runs it,
 * the same in every job. The test is the nearest caller whose method carries a JUnit or TestNG annotation;
 * failing that (a dynamic test's lambda, a helper outside a test), the nearest caller outside Frontrun and the
 * JDK, its lambda named after the method that holds it.
 */
public final class ExplorationIds {

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private ExplorationIds() {}

    public static String ofCaller() {
        return WALKER.walk(frames -> {
            List<StackWalker.StackFrame> list = frames.toList();
            return list.stream()
                    .filter(ExplorationIds::annotatedTest)
                    .findFirst()
                    .or(() -> list.stream()
                            .filter(f -> !framework(f.getClassName()))
                            .findFirst())
                    .map(ExplorationIds::id)
                    .orElse("exploration");
        });
    }

    private static boolean annotatedTest(StackWalker.StackFrame frame) {
        if (framework(frame.getClassName())) {
            return false;
        }
        return Arrays.stream(frame.getDeclaringClass().getDeclaredMethods())
                .filter(m -> m.getName().equals(frame.getMethodName()))
                .anyMatch(ExplorationIds::testMethod);
    }

    private static boolean testMethod(Method method) {
        return Arrays.stream(method.getAnnotations())
                .map(a -> a.annotationType().getName())
                .anyMatch(name -> name.startsWith("org.junit.") || name.startsWith("org.testng."));
    }

    private static boolean framework(String className) {
        return className.startsWith("dev.frontrun.Exploration")
                || className.startsWith("dev.frontrun.internal.")
                || className.startsWith("dev.frontrun.spring.")
                || className.startsWith("java.")
                || className.startsWith("jdk.")
                || className.startsWith("sun.")
                || className.startsWith("org.junit.")
                || className.startsWith("org.springframework.");
    }

    private static String id(StackWalker.StackFrame frame) {
        String method = frame.getMethodName();
        if (method.startsWith("lambda$")) {
            method = Optional.of(method.split("\\$"))
                    .filter(p -> p.length > 1)
                    .map(p -> p[1])
                    .orElse(method);
        }
        return safe(frame.getClassName() + "." + method);
    }

    /** An id usable in a file name on every system. */
    public static String safe(String id) {
        return id.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}

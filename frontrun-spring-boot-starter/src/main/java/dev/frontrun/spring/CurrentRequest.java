package dev.frontrun.spring;

import dev.frontrun.spi.SchedulingPoints;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.util.Optional;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.InvocableHandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The web request the calling thread is serving, as a person names it: {@code POST /owners/1/edit →
 * OwnerController.processUpdateOwnerForm}. Transactions begun while serving it are named after it,
 * so traces read as requests rather than as repository internals ({@code SimpleJpaRepository.save}).
 * A transaction begun by a {@code @ModelAttribute} or {@code @InitBinder} method, which Spring MVC runs
 * before the handler, is named after that method ({@code OwnerController.findOwner (@ModelAttribute)}):
 * a lock the handler takes never spans it.
 */
final class CurrentRequest {

    private static final boolean WEB = ClassUtils.isPresent(
                    "org.springframework.web.servlet.HandlerMapping", CurrentRequest.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", CurrentRequest.class.getClassLoader());

    private CurrentRequest() {}

    /** The route and handler of the request being served on this thread, if any. */
    static Optional<String> describe() {
        return WEB ? Web.describe() : Optional.empty();
    }

    /** Kept apart so that applications without Spring MVC never load the web types. */
    private static final class Web {

        private static final StackWalker FRAMES = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

        static Optional<String> describe() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (!(attributes instanceof ServletRequestAttributes servlet)) {
                return Optional.empty();
            }
            HttpServletRequest request = servlet.getRequest();
            String route = request.getMethod() + " " + request.getRequestURI();
            Object handler = request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
            if (handler instanceof HandlerMethod method) {
                // the walk only where the name is used: on an explored thread
                Optional<String> before = SchedulingPoints.active() ? invokedMethod() : Optional.empty();
                return Optional.of(route + " → "
                        + before.orElse(method.getBeanType().getSimpleName() + "."
                                + method.getMethod().getName()));
            }
            return Optional.of(route);
        }

        /**
         * The {@code @ModelAttribute} or {@code @InitBinder} method Spring MVC is invoking on this thread, named with its
         * annotation; empty while the handler itself runs. Every controller method Spring MVC calls is called by an
         * {@link InvocableHandlerMethod}'s {@code doInvoke} (through reflection, whose frames the walk skips): the
         * frame it called is the method running.
         */
        private static Optional<String> invokedMethod() {
            return FRAMES.walk(frames -> {
                        StackWalker.StackFrame[] called = new StackWalker.StackFrame[1];
                        return frames.filter(frame -> {
                                    boolean invoker = frame.getDeclaringClass() == InvocableHandlerMethod.class
                                            && frame.getMethodName().equals("doInvoke");
                                    if (!invoker && !reflection(frame.getClassName())) {
                                        called[0] = frame;
                                    }
                                    return invoker;
                                })
                                .findFirst()
                                .map(invoker -> called[0]);
                    })
                    .flatMap(Web::annotated);
        }

        /** Frames of the reflective call between the invoker and the method, should a JDK show them. */
        private static boolean reflection(String type) {
            return type.startsWith("java.lang.reflect.")
                    || type.startsWith("jdk.internal.reflect.")
                    || type.startsWith("java.lang.invoke.");
        }

        private static Optional<String> annotated(StackWalker.StackFrame frame) {
            Class<?> type = ClassUtils.getUserClass(frame.getDeclaringClass());
            Method method = ReflectionUtils.findMethod(
                    type, frame.getMethodName(), frame.getMethodType().parameterArray());
            if (method == null) {
                return Optional.empty();
            }
            String name = type.getSimpleName() + "." + method.getName();
            if (AnnotatedElementUtils.hasAnnotation(method, InitBinder.class)) {
                return Optional.of(name + " (@InitBinder)");
            }
            if (AnnotatedElementUtils.hasAnnotation(method, ModelAttribute.class)
                    && !AnnotatedElementUtils.hasAnnotation(method, RequestMapping.class)) {
                return Optional.of(name + " (@ModelAttribute)");
            }
            return Optional.empty();
        }
    }
}

package dev.frontrun.spring;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The web request the calling thread is serving, as a person names it: {@code POST /owners/1/edit →
 * OwnerController.processUpdateOwnerForm}. Transactions begun while serving it are named after it,
 * so traces read as requests rather than as repository internals ({@code SimpleJpaRepository.save}).
 */
final class CurrentRequest {

    private static final boolean WEB = ClassUtils.isPresent("org.springframework.web.servlet.HandlerMapping",
            CurrentRequest.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", CurrentRequest.class.getClassLoader());

    private CurrentRequest() {
    }

    /** The route and handler of the request being served on this thread, if any. */
    static Optional<String> describe() {
        return WEB ? Web.describe() : Optional.empty();
    }

    /** Kept apart so that applications without Spring MVC never load the web types. */
    private static final class Web {
        static Optional<String> describe() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (!(attributes instanceof ServletRequestAttributes servlet)) {
                return Optional.empty();
            }
            HttpServletRequest request = servlet.getRequest();
            String route = request.getMethod() + " " + request.getRequestURI();
            Object handler = request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
            if (handler instanceof HandlerMethod method) {
                return Optional.of(route + " → " + method.getBeanType().getSimpleName() + "." + method.getMethod().getName());
            }
            return Optional.of(route);
        }
    }
}

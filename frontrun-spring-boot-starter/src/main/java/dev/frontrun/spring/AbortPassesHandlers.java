package dev.frontrun.spring;

import dev.frontrun.spi.SchedulingPoints;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Keeps Frontrun's control flow invisible to the application's exception handlers.
 * An explored request whose execution is over unwinds
 * with the engine's {@link SchedulingPoints.Abort}, an {@code Error}, which Spring MVC wraps into a
 * {@code ServletException} ("Handler dispatch failed") and offers to the exception resolvers, where an application's
 * catch-all {@code @ExceptionHandler(Exception.class)} would log it as its own 500 and answer as if the request had
 * failed. This resolver, first of all, rethrows it, so that the request goes on unwinding and no
 * {@code @ExceptionHandler}, {@code @ControllerAdvice} or error page sees it. Every other exception it leaves to the
 * application's resolvers.
 */
final class AbortPassesHandlers implements HandlerExceptionResolver, Ordered {

    @Override
    public ModelAndView resolveException(
            HttpServletRequest request, HttpServletResponse response, Object handler, Exception thrown) {
        Optional<SchedulingPoints.Abort> abort = SchedulingPoints.abortIn(thrown);
        if (abort.isPresent()) {
            throw abort.get();
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}

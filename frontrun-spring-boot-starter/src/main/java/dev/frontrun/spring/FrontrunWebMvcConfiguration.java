package dev.frontrun.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Keeps Frontrun's unwinding of explored requests out of the application's exception handlers ({@link AbortPassesHandlers}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(
        name = {"org.springframework.web.servlet.HandlerExceptionResolver", "jakarta.servlet.http.HttpServletRequest"})
class FrontrunWebMvcConfiguration {

    @Bean
    AbortPassesHandlers frontrunAbortPassesHandlers() {
        return new AbortPassesHandlers();
    }
}

package dev.frontrun.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Names transactions after their {@code @Transactional} methods; Boot applies the listener to its transaction managers. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.transaction.TransactionExecutionListener")
class FrontrunTransactionConfiguration {

    @Bean
    FrontrunTransactionListener frontrunTransactionListener() {
        return new FrontrunTransactionListener();
    }
}

package dev.frontrun.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.test.context.TestPropertySource;

/**
 * Races code in a Spring Boot test, beside {@code @SpringBootTest}.
 * Put it next to {@code @SpringBootTest} (and
 * {@code @AutoConfigureMockMvc}) to turn on Frontrun's auto-configuration — every DataSource is
 * wrapped, a {@link RaceExplorer} bean is available — and its JUnit extension, which points to
 * the report of a failing exploration. The auto-configuration is imported explicitly too, so it
 * also applies in test slices that pick their auto-configurations ({@code @JdbcTest},
 * {@code @DataJpaTest}); those are {@code @Transactional} by default, which explorations refuse.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(FrontrunExtension.class)
@TestPropertySource(properties = "frontrun.enabled=true")
@ImportAutoConfiguration(FrontrunAutoConfiguration.class)
public @interface FrontrunTest {}

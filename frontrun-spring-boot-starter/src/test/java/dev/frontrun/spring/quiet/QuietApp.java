package dev.frontrun.spring.quiet;

import dev.frontrun.spring.witness.Seen;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * An application as real ones are written: a handler that logs what it does and catches {@code Exception} itself, and
 * a catch-all {@code @ExceptionHandler(Exception.class)} that logs and answers 500. Frontrun must stay out of both.
 */
@SpringBootApplication
@Import(Seen.class)
public class QuietApp {}

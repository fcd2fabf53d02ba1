package dev.frontrun.spring.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small web + JPA application with the classic races of a Spring service — a read-modify-write
 * counter, a check-then-insert — and three fixes of the counter, for the starter's tests.
 */
@SpringBootApplication
public class RaceApp {}

package dev.frontrun.spring;

import java.util.Optional;

/** Remembers, per test thread, the report the last exploration wrote. */
final class Reports {

    private static final ThreadLocal<String> LAST = new ThreadLocal<>();

    private Reports() {
    }

    static void wrote(String path) {
        LAST.set(path);
    }

    static Optional<String> lastReportOnThisThread() {
        return Optional.ofNullable(LAST.get());
    }
}

package dev.frontrun.spring;

import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * JUnit 5 side of {@link FrontrunTest}: when a test fails after an exploration wrote a report,
 * it says where the report is, so the interleaving can be looked at in a browser.
 */
public final class FrontrunExtension implements TestExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        Optional<String> report = Reports.lastReportOnThisThread();
        if (report.isPresent()) {
            String where = "Frontrun report: " + report.get();
            System.err.println(where);
            context.publishReportEntry("frontrun-report", report.get());
            throwable.addSuppressed(new FrontrunReportLocation(where));
        }
        throw throwable;
    }

    /** Carries the report location in the failure that JUnit prints. */
    static final class FrontrunReportLocation extends Exception {
        FrontrunReportLocation(String message) {
            super(message, null, false, false);
        }
    }
}

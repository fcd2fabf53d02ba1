package dev.frontrun.spring;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * JUnit 5 side of {@link FrontrunTest}. When a test fails after one of its explorations wrote a
 * report, it says where the report is, so the interleaving can be looked at in a browser.
 *
 * <p>Each test gets a {@link ReportSink} of its own, kept in the test's {@link ExtensionContext.Store}
 * and registered with the test context's {@link ReportSinks} bean for the duration of the test.
 * The report named is therefore one that test wrote (see {@link ReportSink} for which), never one
 * of an earlier test that ran on the same thread.
 */
public final class FrontrunExtension implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(FrontrunExtension.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        ReportSink sink = new ReportSink(
                context.getRequiredTestClass().getName(),
                context.getRequiredTestMethod().getName());
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        store.put(ReportSink.class, sink);
        reportSinks(context).ifPresent(sinks -> {
            sinks.listen(sink);
            store.put(ReportSinks.class, sinks); // afterEach must not ask a context that may be closed by then
        });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        ReportSink sink = store.remove(ReportSink.class, ReportSink.class);
        ReportSinks sinks = store.remove(ReportSinks.class, ReportSinks.class);
        if (sinks != null) {
            sinks.stopListening(sink);
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        ReportSink sink = context.getStore(NAMESPACE).get(ReportSink.class, ReportSink.class);
        Optional<Path> report = sink == null ? Optional.empty() : sink.report();
        if (report.isPresent()) {
            String where = "Frontrun report: " + report.get();
            System.err.println(where);
            context.publishReportEntry("frontrun-report", report.get().toString());
            throwable.addSuppressed(new FrontrunReportLocation(where));
            attach(context, report.get());
        }
        throw throwable;
    }

    /** Attaches the report to the test's JUnit report, so IDEs and CI servers link it next to the failure. */
    private static void attach(ExtensionContext context, Path report) {
        try {
            context.publishFile(
                    report.getFileName().toString(),
                    org.junit.jupiter.api.MediaType.create("text", "html", StandardCharsets.UTF_8),
                    target -> Files.copy(report, target));
        } catch (RuntimeException e) {
            // the launcher may have no output directory for files; the path in the failure still names it
            System.err.println("Frontrun report not attached to the JUnit report: " + e.getMessage());
        }
    }

    /** The context's sinks; none when the test does not run with Spring or its context has Frontrun off. */
    private static Optional<ReportSinks> reportSinks(ExtensionContext context) {
        if (!runsWithSpring(context)) {
            return Optional.empty(); // asking SpringExtension for a context would try to build one
        }
        return Optional.ofNullable(SpringExtension.getApplicationContext(context)
                .getBeanProvider(ReportSinks.class)
                .getIfAvailable());
    }

    /** Whether the test class, or one it is nested in, registers the {@link SpringExtension} (as {@code @SpringBootTest} does). */
    private static boolean runsWithSpring(ExtensionContext context) {
        for (Class<?> type = context.getRequiredTestClass(); type != null; type = type.getEnclosingClass()) {
            boolean spring = AnnotationSupport.findRepeatableAnnotations(type, ExtendWith.class).stream()
                    .anyMatch(extendWith -> Arrays.asList(extendWith.value()).contains(SpringExtension.class));
            if (spring) {
                return true;
            }
        }
        return false;
    }

    /** Carries the report location in the failure that JUnit prints. */
    static final class FrontrunReportLocation extends Exception {
        FrontrunReportLocation(String message) {
            super(message, null, false, false);
        }
    }
}

package dev.frontrun.spring;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Holds Logback's events of explored threads, to be printed later as they would have been.
 * A turbo filter, asked before every event is made, builds the event of a
 * call on an explored thread that its logger would log, captures what it needs from the thread (its name, the MDC,
 * the formatted message) and holds it instead of logging it; printed later, it goes to the logger's appenders as it
 * would have. Caller data (a pattern's {@code %line}, {@code %method}) is not kept, as with Logback's own
 * {@code AsyncAppender}; nor are an SLF4J fluent call's key-value pairs.
 */
final class LogbackDiversion implements LogDiversion {

    /** Whether SLF4J logs to Logback in this application. */
    static boolean active() {
        return LoggerFactory.getILoggerFactory() instanceof LoggerContext;
    }

    @Override
    public AutoCloseable divert(Holder holder) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        TurboFilter filter = new Holding(holder);
        filter.setName("frontrun-held-logs");
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
        return () -> {
            context.getTurboFilterList().remove(filter);
            filter.stop();
        };
    }

    private static final class Holding extends TurboFilter {
        private final Holder holder;

        Holding(Holder holder) {
            this.holder = holder;
        }

        @Override
        public FilterReply decide(
                Marker marker, Logger logger, Level level, String format, Object[] params, Throwable thrown) {
            if (format == null && thrown == null
                    || level == null
                    || logger == null
                    || !level.isGreaterOrEqual(logger.getEffectiveLevel())
                    || !holder.holds()) {
                return FilterReply.NEUTRAL; // an isEnabled question, a disabled level, or not an explored thread
            }
            LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, level, format, thrown, params);
            if (marker != null) {
                event.addMarker(marker);
            }
            event.setCallerData(new StackTraceElement[0]);
            event.prepareForDeferredProcessing();
            holder.hold(() -> logger.callAppenders(event));
            return FilterReply.DENY;
        }
    }
}

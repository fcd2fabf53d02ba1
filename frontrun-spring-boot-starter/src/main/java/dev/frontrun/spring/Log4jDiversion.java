package dev.frontrun.spring;

import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.ObjectMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;

/**
 * Holds Log4j 2's events of explored threads, to be printed later as they would have been.
 * A context-wide filter, asked before every event is made, makes the event
 * of a call on an explored thread that its logger would log, with what it needs from the thread (its name, the thread
 * context, the message), holds it and denies the call; printed later, it goes to the logger's configuration as it
 * would have. Caller location is not kept, as with Log4j's asynchronous loggers by default.
 */
final class Log4jDiversion implements LogDiversion {

    private final LoggerContext context;

    Log4jDiversion() {
        this((LoggerContext) LogManager.getContext(false));
    }

    /** Diverts the events of {@code context}'s loggers. */
    Log4jDiversion(LoggerContext context) {
        this.context = context;
    }

    /** Whether Log4j 2 itself (log4j-core, not a bridge to another framework) logs in this application. */
    static boolean active() {
        return LogManager.getContext(false) instanceof LoggerContext;
    }

    @Override
    public AutoCloseable divert(Holder holder) {
        Configuration configuration = context.getConfiguration();
        Filter filter = new Holding(holder);
        filter.start();
        configuration.addFilter(filter);
        return () -> {
            configuration.removeFilter(filter);
            filter.stop();
        };
    }

    private static final class Holding extends AbstractFilter {
        private final Holder holder;

        Holding(Holder holder) {
            this.holder = holder;
        }

        @Override
        public Result filter(Logger logger, Level level, Marker marker, String msg, Object... params) {
            return msg == null
                    ? Result.NEUTRAL
                    : held(
                            logger,
                            level,
                            marker,
                            () -> logger.getMessageFactory().newMessage(msg, params),
                            null);
        }

        @Override
        public Result filter(Logger logger, Level level, Marker marker, Object msg, Throwable thrown) {
            return msg == null && thrown == null
                    ? Result.NEUTRAL
                    : held(logger, level, marker, () -> new ObjectMessage(msg), thrown);
        }

        @Override
        public Result filter(Logger logger, Level level, Marker marker, Message msg, Throwable thrown) {
            return msg == null ? Result.NEUTRAL : held(logger, level, marker, () -> msg, thrown);
        }

        private Result held(Logger logger, Level level, Marker marker, Supplier<Message> message, Throwable thrown) {
            if (logger == null || level == null || !logger.getLevel().isLessSpecificThan(level) || !holder.holds()) {
                return Result.NEUTRAL; // a disabled level, or not an explored thread
            }
            Message made = message.get();
            SortedArrayStringMap threadContext = new SortedArrayStringMap(ThreadContext.getImmutableContext());
            Log4jLogEvent event = Log4jLogEvent.newBuilder()
                    .setLoggerName(logger.getName())
                    .setLoggerFqcn(Logger.class.getName())
                    .setLevel(level)
                    .setMarker(marker)
                    .setMessage(made)
                    .setThrown(thrown != null ? thrown : made.getThrowable())
                    .setContextData(threadContext)
                    .setContextStack(ThreadContext.getImmutableStack())
                    .setThreadName(Thread.currentThread().getName())
                    .setThreadId(Thread.currentThread().getId())
                    .setThreadPriority(Thread.currentThread().getPriority())
                    .setTimeMillis(System.currentTimeMillis())
                    .setIncludeLocation(false)
                    .build();
            holder.hold(() -> logger.get().log(event));
            return Result.DENY;
        }
    }
}

package dev.frontrun.spring.quiet;

import dev.frontrun.spring.witness.Seen;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The application's catch-all, as many have one: every exception is logged as an error and answered 500. */
@RestControllerAdvice
public class CatchAll {

    private static final Logger LOG = LoggerFactory.getLogger(CatchAll.class);

    private final Seen seen;

    public CatchAll(Seen seen) {
        this.seen = seen;
    }

    @ExceptionHandler(Exception.class)
    public ResponseEntity<String> anyException(Exception e) {
        seen.handled(e);
        LOG.error("request failed", e);
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body("failed");
    }
}

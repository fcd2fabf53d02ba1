package dev.frontrun.demo.petclinic.system;

import java.util.Map;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Turns the flows' outcomes into HTTP answers: form errors 400, conflicts 409, unknown ids 404. */
@RestControllerAdvice
class ErrorAnswers {

    @ExceptionHandler
    ResponseEntity<Map<String, Object>> invalidForm(InvalidFormException e) {
        return ResponseEntity.badRequest().body(Map.of("errors", e.errors()));
    }

    @ExceptionHandler
    ResponseEntity<Map<String, Object>> staleForm(StaleFormException e) {
        return conflict(e.getMessage());
    }

    /** A concurrent edit committed first (the fixed variant's {@code @Version} check). */
    @ExceptionHandler
    ResponseEntity<Map<String, Object>> concurrentEdit(OptimisticLockingFailureException e) {
        return conflict("the record was changed by another request; reload and retry");
    }

    @ExceptionHandler
    ResponseEntity<Map<String, Object>> notFound(NotFoundException e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
                .body(Map.of("error", "not found", "message", e.getMessage()));
    }

    private static ResponseEntity<Map<String, Object>> conflict(String message) {
        return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", "conflict", "message", message));
    }
}

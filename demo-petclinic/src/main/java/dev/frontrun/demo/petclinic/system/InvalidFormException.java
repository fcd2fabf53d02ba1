package dev.frontrun.demo.petclinic.system;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;

/**
 * A form with errors: answered as 400 {@code {"errors": {field: message}}}, the JSON form of the
 * sample re-showing the form. An exception, so that a single-transaction flow rolls back the
 * values already bound onto the managed entity.
 */
public class InvalidFormException extends RuntimeException {

    private final Map<String, String> errors;

    public InvalidFormException(Map<String, String> errors) {
        super("invalid form: " + errors);
        this.errors = Map.copyOf(errors);
    }

    /** Throws if {@code result} has errors. */
    public static void requireValid(BindingResult result) {
        if (!result.hasErrors()) {
            return;
        }
        Map<String, String> errors = new LinkedHashMap<>();
        for (FieldError error : result.getFieldErrors()) {
            String message = error.isBindingFailure() || error.getDefaultMessage() == null
                    ? "invalid"
                    : error.getDefaultMessage();
            errors.putIfAbsent(error.getField(), message);
        }
        result.getGlobalErrors().forEach(e -> errors.putIfAbsent(e.getObjectName(), e.getDefaultMessage()));
        throw new InvalidFormException(errors);
    }

    public Map<String, String> errors() {
        return errors;
    }
}

package dev.frontrun.demo.petclinic.pet;

import dev.frontrun.demo.petclinic.system.InvalidFormException;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.dao.DataIntegrityViolationException;

/**
 * The fixed variant's backstop for the duplicate-name rule: a unique index on
 * {@code pets (owner_id, lower(name))} (schema-fixed.sql). A flow that loses the race fails on that
 * index; this turns the violation into the same form error the Java check gives. The classic
 * schema has no such index, so there nothing is ever caught here.
 */
public final class UniquePetNames {

    /** The index name in schema-fixed.sql. */
    public static final String INDEX = "pets_owner_lower_name_unique";

    private UniquePetNames() {}

    /** Runs {@code flow} (outside its transaction, so that it has rolled back when we answer). */
    public static <T> T rejectDuplicates(Supplier<T> flow) {
        try {
            return flow.get();
        } catch (DataIntegrityViolationException e) {
            if (violates(e)) {
                throw new InvalidFormException(Map.of("name", "already exists"));
            }
            throw e;
        }
    }

    private static boolean violates(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(INDEX)) {
                return true;
            }
        }
        return false;
    }
}

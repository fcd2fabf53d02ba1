package dev.frontrun.demo.petclinic.system;

import dev.frontrun.demo.petclinic.model.Versioned;

/**
 * The form was loaded from a version that is no longer current: answered 409. Only the fixed
 * variant maps versions, so only it can detect this; in the classic variant the check is a no-op.
 */
public class StaleFormException extends RuntimeException {

    public StaleFormException(String message) {
        super(message);
    }

    /**
     * Rejects a form whose hidden {@code version} field differs from the loaded entity's version.
     * Passes when either is absent (classic variant, or a client that did not send it; the fixed
     * variant's {@code @Version} still guards its own transaction then).
     */
    public static void requireCurrent(Versioned loaded, Integer postedVersion) {
        if (postedVersion != null && loaded.getVersion() != null && !postedVersion.equals(loaded.getVersion())) {
            throw new StaleFormException("the form was loaded at version " + postedVersion
                    + " but the record is now at version " + loaded.getVersion() + "; reload and retry");
        }
    }
}

package dev.frontrun.internal.sql.parse.jsql;

/** Abandons the analysis of a statement; carries the reason into the opaque result. */
final class Unsupported extends RuntimeException {

    private Unsupported(String reason) {
        super(reason, null, false, false);
    }

    static Unsupported because(String reason) {
        return new Unsupported(reason);
    }
}

package dev.frontrun.internal.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The report's style sheet, kept as the resource {@code report.css} next to this class so it can be
 * edited as CSS, and inlined into every report so the file stays self-contained and opens offline.
 */
final class Stylesheet {

    static final String RESOURCE = "report.css";

    private Stylesheet() {}

    /** The style sheet's text, checked to be safe inside a {@code <style>} element. */
    static String css() {
        try (InputStream in = Stylesheet.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the report style sheet " + RESOURCE + " is missing from the class path");
            }
            String css = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (css.contains("</") || css.contains("<!--")) {
                throw new IllegalStateException(RESOURCE + " must not contain markup");
            }
            return css;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report style sheet " + RESOURCE, e);
        }
    }

    /** Writes {@code <style>} with the style sheet: the one place constant markup enters the report raw. */
    static void write(HtmlWriter html) {
        html.open("style").newline().raw(css()).close().newline();
    }
}

package dev.frontrun.internal.report;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Writes HTML and inline SVG so that no caller can put text into markup unescaped. Text and
 * attribute values always go through {@link #escape}, tag and attribute names must be plain
 * identifiers, and {@link #raw} is reserved for constant markup the report itself owns. Keeps a
 * stack of open elements, so the document it returns is balanced.
 */
final class HtmlWriter {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9:-]*");

    private final StringBuilder out = new StringBuilder(32_768);
    private final Deque<String> open = new ArrayDeque<>();

    /**
     * Opens {@code tag} with {@code attributes} given as name, value pairs; a null value leaves the
     * attribute out, a {@code Double} is written with one decimal.
     */
    HtmlWriter open(String tag, Object... attributes) {
        start(tag, attributes);
        out.append('>');
        open.push(tag);
        return this;
    }

    /** An element without content, written self-closed ({@code <rect …/>}) as SVG and HTML void elements allow. */
    HtmlWriter empty(String tag, Object... attributes) {
        start(tag, attributes);
        out.append("/>");
        return this;
    }

    /** {@code <tag attributes>text</tag>}. */
    HtmlWriter element(String tag, Object text, Object... attributes) {
        return open(tag, attributes).text(text).close();
    }

    /** Closes the innermost open element. */
    HtmlWriter close() {
        if (open.isEmpty()) {
            throw new IllegalStateException("no element is open");
        }
        out.append("</").append(open.pop()).append('>');
        return this;
    }

    /** Text content, escaped; null writes nothing. */
    HtmlWriter text(Object text) {
        out.append(escape(text == null ? null : String.valueOf(text)));
        return this;
    }

    /** A line break in the source, for people reading it. */
    HtmlWriter newline() {
        out.append('\n');
        return this;
    }

    /** Markup written as is: only for constants of the report (the doctype, the style sheet), never for data. */
    HtmlWriter raw(String trustedMarkup) {
        out.append(trustedMarkup);
        return this;
    }

    /** The document; every element must have been closed. */
    String finish() {
        if (!open.isEmpty()) {
            throw new IllegalStateException("elements left open: " + open);
        }
        return out.toString();
    }

    private void start(String tag, Object[] attributes) {
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name, value pairs: " + attributes.length);
        }
        out.append('<').append(name(tag));
        for (int i = 0; i < attributes.length; i += 2) {
            Object value = attributes[i + 1];
            if (value != null) {
                out.append(' ')
                        .append(name(String.valueOf(attributes[i])))
                        .append("=\"")
                        .append(escape(format(value)))
                        .append('"');
            }
        }
    }

    private static String name(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a tag or attribute name: " + name);
        }
        return name;
    }

    /** A coordinate as a whole number ({@code 12}) or with one decimal ({@code 12.5}), anything else as its string. */
    static String format(Object value) {
        if (value instanceof Double d) {
            String text = String.format(Locale.ROOT, "%.1f", d);
            String whole = text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
            return whole.equals("-0") ? "0" : whole;
        }
        return String.valueOf(value);
    }

    /** {@code & < > " '} as entities, control characters but tab and line breaks as spaces; null as empty. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c < 0x20 && c != '\n' && c != '\t' && c != '\r' ? ' ' : c);
            }
        }
        return escaped.toString();
    }
}

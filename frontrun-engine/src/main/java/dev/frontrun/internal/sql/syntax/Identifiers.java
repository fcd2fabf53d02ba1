package dev.frontrun.internal.sql.syntax;

import java.util.regex.Pattern;

/**
 * PostgreSQL identifier rules in one place. Unquoted names fold to lower case, quoted names keep
 * their case, and a name that would read differently unquoted is rendered quoted. Every stage
 * compares names only after {@link #fold}, so {@code Owners}, {@code owners} and {@code "owners"}
 * are one table while {@code "Owners"} is another.
 */
public final class Identifiers {

    private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_$]*");

    private Identifiers() {}

    /** Folds an identifier as written in SQL (possibly {@code "quoted"}) to its catalog spelling. */
    public static String fold(String raw) {
        if (raw == null) {
            return null;
        }
        int n = raw.length();
        if (n >= 2 && raw.charAt(0) == '"' && raw.charAt(n - 1) == '"') {
            return raw.substring(1, n - 1).replace("\"\"", "\"");
        }
        return lowerAscii(raw);
    }

    /** PostgreSQL lower-cases only ASCII letters of unquoted identifiers (in UTF-8 databases). */
    public static String lowerAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] chars = s.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    char d = chars[j];
                    if (d >= 'A' && d <= 'Z') {
                        chars[j] = (char) (d + ('a' - 'A'));
                    }
                }
                return new String(chars);
            }
        }
        return s;
    }

    /** Renders a catalog name so that it cannot be confused with another: quoted unless plain. */
    public static String render(String name) {
        if (PLAIN.matcher(name).matches()) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}

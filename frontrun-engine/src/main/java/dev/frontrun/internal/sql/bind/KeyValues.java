package dev.frontrun.internal.sql.bind;

import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.syntax.Operand;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Normalises key values so that two values get the same rendering exactly when PostgreSQL would find
 * them equal in a column of the given {@link KeyType}: {@code 1}, {@code 1L}, {@code "1"} and
 * {@code 1.0} on an integer key are all {@code 1}; {@code 'ab  '} on a char(n) key is {@code 'ab'}.
 * Anything without a sure normalisation is unknown, which sends the access to table level.
 */
public final class KeyValues {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern HEX32 = Pattern.compile("[0-9a-fA-F]{32}");

    private KeyValues() {}

    /** The rendering of a bound Java value ({@code null} must be handled by the caller: it matches nothing). */
    public static Optional<String> render(KeyType type, Object value) {
        return switch (type) {
            case INTEGER -> integer(value).map(BigInteger::toString);
            case NUMERIC -> numeric(value).map(BigDecimal::toPlainString);
            case TEXT -> text(value).map(KeyValues::quote);
            case BPCHAR -> text(value).map(KeyValues::stripTrailingSpaces).map(KeyValues::quote);
            case UUID -> uuid(value).map(KeyValues::quote);
            case OTHER -> Optional.empty();
        };
    }

    /** The rendering of a literal written in the SQL text. */
    public static Optional<String> render(KeyType type, Operand.Literal literal) {
        if (literal.kind() == Operand.LiteralKind.BOOLEAN) {
            return Optional.empty();
        }
        if (literal.kind() == Operand.LiteralKind.NUMBER
                && (type == KeyType.TEXT || type == KeyType.BPCHAR || type == KeyType.UUID)) {
            return Optional.empty(); // text = integer does not even type-check
        }
        return render(type, literal.text());
    }

    private static Optional<BigInteger> integer(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return Optional.of(BigInteger.valueOf(((Number) value).longValue()));
        }
        if (value instanceof BigInteger b) {
            return Optional.of(b);
        }
        if (value instanceof String s) {
            String t = s.trim();
            if (INTEGER.matcher(t).matches()) {
                return Optional.of(new BigInteger(t.startsWith("+") ? t.substring(1) : t));
            }
            return numeric(t).flatMap(KeyValues::integral);
        }
        return numeric(value).flatMap(KeyValues::integral);
    }

    private static Optional<BigInteger> integral(BigDecimal d) {
        try {
            return Optional.of(d.toBigIntegerExact());
        } catch (ArithmeticException notIntegral) {
            return Optional.empty();
        }
    }

    private static Optional<BigDecimal> numeric(Object value) {
        try {
            BigDecimal d;
            if (value instanceof BigDecimal b) {
                d = b;
            } else if (value instanceof Double || value instanceof Float) {
                double x = ((Number) value).doubleValue();
                if (!Double.isFinite(x)) {
                    return Optional.empty();
                }
                d = BigDecimal.valueOf(x);
            } else if (value instanceof Integer
                    || value instanceof Long
                    || value instanceof Short
                    || value instanceof Byte) {
                d = BigDecimal.valueOf(((Number) value).longValue());
            } else if (value instanceof BigInteger b) {
                d = new BigDecimal(b);
            } else if (value instanceof String s) {
                d = new BigDecimal(s.trim());
            } else {
                return Optional.empty();
            }
            return Optional.of(d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> text(Object value) {
        if (value instanceof String s) {
            return Optional.of(s);
        }
        if (value instanceof Character c) {
            return Optional.of(String.valueOf(c));
        }
        return Optional.empty();
    }

    private static Optional<String> uuid(Object value) {
        if (value instanceof UUID u) {
            return Optional.of(u.toString());
        }
        if (value instanceof String s) {
            String t = s.trim();
            if (t.startsWith("{") && t.endsWith("}")) {
                t = t.substring(1, t.length() - 1);
            }
            t = t.replace("-", "");
            if (HEX32.matcher(t).matches()) {
                t = t.toLowerCase(Locale.ROOT);
                return Optional.of(t.substring(0, 8) + "-" + t.substring(8, 12) + "-" + t.substring(12, 16) + "-"
                        + t.substring(16, 20) + "-" + t.substring(20));
            }
        }
        return Optional.empty();
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}

package dev.frontrun.internal.sql.syntax;

import java.util.Objects;

/**
 * A value in a key position of a statement, kept symbolic so a classification can be cached by SQL
 * text and bound to different parameters later without parsing again.
 */
public sealed interface Operand {

    /** A JDBC placeholder; {@code index} is the 1-based JDBC parameter index. */
    record Param(int index) implements Operand {
        @Override
        public String toString() {
            return "?" + index;
        }
    }

    /** A placeholder bound to an array, as in {@code id = any(?)}: each element is an alternative. */
    record ArrayParam(int index) implements Operand {
        @Override
        public String toString() {
            return "any(?" + index + ")";
        }
    }

    /** A literal written in the SQL text. */
    record Literal(LiteralKind kind, String text) implements Operand {
        public Literal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(text, "text");
        }

        public static Literal number(String text) {
            return new Literal(LiteralKind.NUMBER, text);
        }

        public static Literal string(String text) {
            return new Literal(LiteralKind.STRING, text);
        }

        @Override
        public String toString() {
            return kind == LiteralKind.STRING ? "'" + text.replace("'", "''") + "'" : text;
        }
    }

    /** SQL {@code NULL}: never equal to anything. */
    record Null() implements Operand {
        @Override
        public String toString() {
            return "null";
        }
    }

    /** {@code DEFAULT} in an INSERT row: the database supplies the value. */
    record Default() implements Operand {
        @Override
        public String toString() {
            return "default";
        }
    }

    /** Any expression whose value is not known before execution. */
    record Unknown() implements Operand {
        @Override
        public String toString() {
            return "<expr>";
        }
    }

    Operand NULL = new Null();
    Operand DEFAULT = new Default();
    Operand UNKNOWN = new Unknown();

    enum LiteralKind {
        NUMBER,
        STRING,
        BOOLEAN
    }
}

package dev.frontrun.internal.sql.syntax;

/**
 * A lexical token of PostgreSQL SQL as the JDBC driver sends it. {@code text} is lower-cased for
 * {@link Type#WORD}, the exact name for {@link Type#QUOTED}, and the unescaped value for
 * {@link Type#STRING}.
 */
public record SqlToken(Type type, String text, int position) {

    public enum Type {
        WORD,
        QUOTED,
        STRING,
        NUMBER,
        PARAM,
        OPERATOR,
        PUNCT
    }

    public boolean isWord(String lowerCaseWord) {
        return type == Type.WORD && text.equals(lowerCaseWord);
    }

    public boolean isSymbol(String symbol) {
        return (type == Type.PUNCT || type == Type.OPERATOR) && text.equals(symbol);
    }

    /** An identifier: a word or a quoted name. Keywords are words too; callers check reserved ones. */
    public boolean isIdentifier() {
        return type == Type.WORD || type == Type.QUOTED;
    }
}

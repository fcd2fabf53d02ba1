package dev.frontrun.jdbc;

/**
 * Lets an ORM say, on the thread about to run a statement, what the statement is about (the
 * Hibernate inspector tags it with entity names), so traces show {@code [Owner]} next to the SQL.
 */
public final class StatementTags {

    private record Tag(String sql, String text) {
    }

    private static final ThreadLocal<Tag> LAST = new ThreadLocal<>();

    private StatementTags() {
    }

    /** Tags the next execution of {@code sql} on this thread. */
    public static void tag(String sql, String text) {
        LAST.set(new Tag(sql, text));
    }

    /** The tag of {@code sql} on this thread, or null. */
    public static String tagOf(String sql) {
        Tag tag = LAST.get();
        return tag != null && tag.sql().equals(sql) ? tag.text() : null;
    }
}

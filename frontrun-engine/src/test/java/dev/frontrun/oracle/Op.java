package dev.frontrun.oracle;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * One generated statement: a {@link Kind} and its arguments. It runs the same way on a plain
 * connection (ground truth) and on a Frontrun proxy (exploration), and renders its result as text
 * so both sides can compare outcomes.
 */
record Op(Kind kind, List<Object> args) {

    /** How a kind's arguments are drawn by the generator. */
    enum Role {
        KEY,
        NAMED_KEY,
        NEW_KEY,
        VALUE,
        THRESHOLD,
        NAME,
        SHARED_NAME
    }

    /** How a statement's result is read. */
    enum Shape {
        QUERY,
        UPDATE,
        GENERATED_KEYS
    }

    /** The statement kinds, each in one {@link Category}. */
    enum Kind {
        READ_PK(Category.PK_READ, Shape.QUERY, "SELECT v, name, deleted FROM item WHERE id = ?", Role.KEY),
        READ_RANGE(
                Category.PREDICATE_READ, Shape.QUERY, "SELECT id, v FROM item WHERE v > ? ORDER BY id", Role.THRESHOLD),
        COUNT_LIVE(Category.PREDICATE_READ, Shape.QUERY, "SELECT count(*) FROM item WHERE NOT deleted"),
        COUNT_NOTES(Category.PREDICATE_READ, Shape.QUERY, "SELECT count(*) FROM note WHERE item_id = ?", Role.KEY),
        UPDATE_SET(Category.UPDATE_PK, Shape.UPDATE, "UPDATE item SET v = ? WHERE id = ?", Role.VALUE, Role.KEY),
        UPDATE_ADD(Category.UPDATE_PK, Shape.UPDATE, "UPDATE item SET v = v + ? WHERE id = ?", Role.VALUE, Role.KEY),
        UPDATE_RANGE(
                Category.UPDATE_PREDICATE,
                Shape.UPDATE,
                "UPDATE item SET v = v + ? WHERE v > ?",
                Role.VALUE,
                Role.THRESHOLD),
        LOCK_PK(Category.FOR_UPDATE, Shape.QUERY, "SELECT v FROM item WHERE id = ? FOR UPDATE", Role.KEY),
        LOCK_RANGE(
                Category.FOR_UPDATE,
                Shape.QUERY,
                "SELECT id, v FROM item WHERE v > ? ORDER BY id FOR UPDATE",
                Role.THRESHOLD),
        SHARE_PK(Category.FOR_SHARE, Shape.QUERY, "SELECT v FROM item WHERE id = ? FOR SHARE", Role.KEY),
        LOCK_NOWAIT(Category.NOWAIT, Shape.QUERY, "SELECT v FROM item WHERE id = ? FOR UPDATE NOWAIT", Role.KEY),
        CLAIM_SKIP_LOCKED(
                Category.SKIP_LOCKED,
                Shape.QUERY,
                "SELECT id FROM item WHERE NOT deleted ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED"),
        RANGE_SKIP_LOCKED(
                Category.SKIP_LOCKED,
                Shape.QUERY,
                "SELECT id, v FROM item WHERE v > ? ORDER BY id FOR UPDATE SKIP LOCKED",
                Role.THRESHOLD),
        /** The UPDATE of an update-then-insert; its INSERT is {@link #INSERT_AFTER_UPDATE}, run when it updated nothing. */
        UPDATE_OR_INSERT(
                Category.UPDATE_THEN_INSERT,
                Shape.UPDATE,
                "UPDATE item SET v = ? WHERE id = ?",
                Role.VALUE,
                Role.NEW_KEY,
                Role.NAME),
        INSERT_AFTER_UPDATE(
                Category.UPDATE_THEN_INSERT,
                Shape.UPDATE,
                "INSERT INTO item (id, v, name) VALUES (?, ?, ?)",
                Role.NEW_KEY,
                Role.VALUE,
                Role.NAME),
        UPSERT_NOTHING(
                Category.UPSERT_DO_NOTHING,
                Shape.UPDATE,
                "INSERT INTO item (id, v, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                Role.NEW_KEY,
                Role.VALUE,
                Role.SHARED_NAME),
        UPSERT_UPDATE(
                Category.UPSERT_DO_UPDATE,
                Shape.UPDATE,
                "INSERT INTO item (id, v, name) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET v = item.v + excluded.v",
                Role.NEW_KEY,
                Role.VALUE,
                Role.NAME),
        INSERT_ITEM(
                Category.INSERT_EXPLICIT_KEY,
                Shape.UPDATE,
                "INSERT INTO item (id, v, name) VALUES (?, ?, ?)",
                Role.NEW_KEY,
                Role.VALUE,
                Role.NAME),
        INSERT_NOTE(
                Category.INSERT_GENERATED_KEY,
                Shape.GENERATED_KEYS,
                "INSERT INTO note (item_id, body) VALUES (?, ?)",
                Role.KEY,
                Role.NAME),
        INSERT_NOTE_RETURNING(
                Category.INSERT_GENERATED_KEY,
                Shape.QUERY,
                "INSERT INTO note (item_id, body) VALUES (?, ?) RETURNING id",
                Role.KEY,
                Role.NAME),
        INSERT_SETTING(Category.INSERT_DEFAULT_KEY, Shape.UPDATE, "INSERT INTO setting (v) VALUES (?)", Role.VALUE),
        READ_SETTING(Category.INSERT_DEFAULT_KEY, Shape.QUERY, "SELECT v FROM setting WHERE name = 'main'"),
        BUMP_SETTING(
                Category.INSERT_DEFAULT_KEY,
                Shape.UPDATE,
                "UPDATE setting SET v = v + ? WHERE name = 'main'",
                Role.VALUE),
        INSERT_NAMED(
                Category.PARTIAL_UNIQUE,
                Shape.UPDATE,
                "INSERT INTO item (id, v, name) VALUES (?, ?, ?)",
                Role.NEW_KEY,
                Role.VALUE,
                Role.SHARED_NAME),
        SOFT_DELETE(
                Category.PARTIAL_UNIQUE, Shape.UPDATE, "UPDATE item SET deleted = true WHERE id = ?", Role.NAMED_KEY),
        REVIVE(Category.PARTIAL_UNIQUE, Shape.UPDATE, "UPDATE item SET deleted = false WHERE id = ?", Role.NAMED_KEY),
        RENAME(
                Category.PARTIAL_UNIQUE,
                Shape.UPDATE,
                "UPDATE item SET name = ? WHERE id = ?",
                Role.SHARED_NAME,
                Role.NAMED_KEY),
        NEXT_TICKET(Category.NEXTVAL, Shape.QUERY, "SELECT nextval('ticket')"),
        DELETE_ITEM(Category.DELETE_CASCADE, Shape.UPDATE, "DELETE FROM item WHERE id = ?", Role.KEY),
        /** A version check: when it updated nothing inside a transaction, the thread rolls back and stops. */
        CHECKED_UPDATE(
                Category.OPTIMISTIC_UPDATE,
                Shape.UPDATE,
                "UPDATE item SET v = v + ? WHERE id = ? AND v = 10 * id",
                Role.VALUE,
                Role.KEY),
        /** A write undone by {@code ROLLBACK TO SAVEPOINT}: only inside a transaction. */
        UNDONE_UPDATE(Category.SAVEPOINT, Shape.UPDATE, "UPDATE item SET v = ? WHERE id = ?", Role.VALUE, Role.KEY),
        ADVISORY_XACT_LOCK(Category.ADVISORY_LOCK, Shape.QUERY, "SELECT pg_advisory_xact_lock(?)", Role.KEY),
        ADVISORY_XACT_TRY(Category.ADVISORY_LOCK, Shape.QUERY, "SELECT pg_try_advisory_xact_lock(?)", Role.KEY),
        TRY_LOCK_PK(
                Category.SKIP_LOCKED_ROW,
                Shape.QUERY,
                "SELECT v FROM item WHERE id = ? FOR UPDATE SKIP LOCKED",
                Role.KEY),
        LOCK_NO_KEY_PK(Category.KEY_LOCKS, Shape.QUERY, "SELECT v FROM item WHERE id = ? FOR NO KEY UPDATE", Role.KEY),
        LOCK_NO_KEY_RANGE(
                Category.KEY_LOCKS,
                Shape.QUERY,
                "SELECT id, v FROM item WHERE v > ? ORDER BY id FOR NO KEY UPDATE",
                Role.THRESHOLD),
        KEY_SHARE_PK(Category.KEY_LOCKS, Shape.QUERY, "SELECT v FROM item WHERE id = ? FOR KEY SHARE", Role.KEY),
        JOIN_READ(
                Category.JOINS,
                Shape.QUERY,
                "SELECT i.v, n.id, n.body FROM item i JOIN note n ON n.item_id = i.id WHERE i.id = ? ORDER BY n.id",
                Role.KEY),
        JOIN_COUNT(
                Category.JOINS,
                Shape.QUERY,
                "SELECT i.id, count(n.id) FROM item i LEFT JOIN note n ON n.item_id = i.id"
                        + " WHERE i.v > ? GROUP BY i.id ORDER BY i.id",
                Role.THRESHOLD),
        JOIN_LOCK(
                Category.JOINS,
                Shape.QUERY,
                "SELECT i.v, n.id FROM item i JOIN note n ON n.item_id = i.id WHERE i.id = ? ORDER BY n.id FOR UPDATE OF i",
                Role.KEY),
        UPDATE_FROM(
                Category.JOINS,
                Shape.UPDATE,
                "UPDATE item SET v = item.v + ? FROM note n WHERE n.item_id = item.id AND item.id = ?",
                Role.VALUE,
                Role.KEY),
        DELETE_USING(
                Category.JOINS,
                Shape.UPDATE,
                "DELETE FROM note USING item i WHERE note.item_id = i.id AND i.v > ?",
                Role.THRESHOLD),
        EXISTS_READ(
                Category.JOINS,
                Shape.QUERY,
                "SELECT id FROM item WHERE EXISTS (SELECT 1 FROM note n WHERE n.item_id = item.id) ORDER BY id"),
        CTE_UPDATE_INSERT(
                Category.CTES,
                Shape.UPDATE,
                "WITH moved AS (UPDATE item SET v = v + ? WHERE id = ? RETURNING id)"
                        + " INSERT INTO note (item_id, body) SELECT id, 'moved' FROM moved",
                Role.VALUE,
                Role.KEY),
        CTE_READ(
                Category.CTES,
                Shape.QUERY,
                "WITH hot AS (SELECT id FROM item WHERE v > ?)"
                        + " SELECT count(*) FROM note WHERE item_id IN (SELECT id FROM hot)",
                Role.THRESHOLD),
        INSERT_SELECT(
                Category.CTES,
                Shape.UPDATE,
                "INSERT INTO note (item_id, body) SELECT id, 'copied' FROM item WHERE v > ? AND NOT deleted",
                Role.THRESHOLD),
        UPDATE_RETURNING(
                Category.CTES, Shape.QUERY, "UPDATE item SET v = v + ? WHERE id = ? RETURNING v", Role.VALUE, Role.KEY),
        DELETE_RETURNING(Category.CTES, Shape.QUERY, "DELETE FROM note WHERE item_id = ? RETURNING id", Role.KEY),
        INSERT_PAIR(
                Category.DEFERRED_UNIQUE,
                Shape.UPDATE,
                "INSERT INTO pair (id, code) VALUES (?, ?)",
                Role.NEW_KEY,
                Role.KEY),
        SWAP_PAIR(
                Category.DEFERRED_UNIQUE,
                Shape.UPDATE,
                "UPDATE pair SET code = CASE id WHEN 1 THEN 2 ELSE 1 END WHERE id IN (1, 2)"),
        RECODE_PAIR(
                Category.DEFERRED_UNIQUE, Shape.UPDATE, "UPDATE pair SET code = ? WHERE id = ?", Role.KEY, Role.KEY),
        READ_PAIRS(Category.DEFERRED_UNIQUE, Shape.QUERY, "SELECT id, code FROM pair ORDER BY id"),
        UPDATE_COUNTED(
                Category.TRIGGERS, Shape.UPDATE, "UPDATE counted SET v = v + ? WHERE id = ?", Role.VALUE, Role.KEY),
        INSERT_COUNTED(
                Category.TRIGGERS, Shape.UPDATE, "INSERT INTO counted (id, v) VALUES (?, ?)", Role.NEW_KEY, Role.VALUE),
        READ_COUNTED(Category.TRIGGERS, Shape.QUERY, "SELECT v, changes FROM counted WHERE id = ?", Role.KEY),
        READ_TALLY(Category.TRIGGERS, Shape.QUERY, "SELECT op, n FROM tally ORDER BY op"),
        INSERT_LINK(
                Category.DEFERRED_FK,
                Shape.UPDATE,
                "INSERT INTO link (id, pair_id) VALUES (?, ?)",
                Role.NEW_KEY,
                Role.KEY),
        DELETE_PAIR(Category.DEFERRED_FK, Shape.UPDATE, "DELETE FROM pair WHERE id = ?", Role.KEY),
        MOVE_LINK(Category.DEFERRED_FK, Shape.UPDATE, "UPDATE link SET pair_id = ? WHERE id = 1", Role.KEY),
        READ_LINKS(Category.DEFERRED_FK, Shape.QUERY, "SELECT id, pair_id FROM link ORDER BY id");

        final Category category;
        final Shape shape;
        final String sql;
        final List<Role> roles;

        Kind(Category category, Shape shape, String sql, Role... roles) {
            this.category = category;
            this.shape = shape;
            this.sql = sql;
            this.roles = List.of(roles);
        }

        /** Whether the generator may emit this kind on its own (the INSERT of an update-then-insert it may not). */
        boolean generated() {
            return this != INSERT_AFTER_UPDATE;
        }

        boolean needsTransaction() {
            return this == UNDONE_UPDATE;
        }
    }

    Op {
        args = List.copyOf(args);
    }

    /** The arguments the SQL binds: an update-then-insert's UPDATE binds its value and key, not its name. */
    private List<Object> bound() {
        return kind == Kind.UPDATE_OR_INSERT ? args.subList(0, 2) : args;
    }

    /** The INSERT an update-then-insert runs when its UPDATE changed no row. */
    Op insertAfterUpdate() {
        if (kind != Kind.UPDATE_OR_INSERT) {
            throw new IllegalStateException(kind + " has no insert");
        }
        return new Op(Kind.INSERT_AFTER_UPDATE, List.of(args.get(1), args.get(0), args.get(2)));
    }

    /** Runs the statement; the result is rows as {@code [(…)]} or an update count. */
    String run(Connection c) throws SQLException {
        List<Object> params = bound();
        PreparedStatement ps = kind.shape == Shape.GENERATED_KEYS
                ? c.prepareStatement(kind.sql, new String[] {"id"})
                : c.prepareStatement(kind.sql);
        try (ps) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            switch (kind.shape) {
                case QUERY -> {
                    try (ResultSet rs = ps.executeQuery()) {
                        return OracleSchema.rowsOf(rs);
                    }
                }
                case UPDATE -> {
                    return String.valueOf(ps.executeUpdate());
                }
                default -> {
                    int count = ps.executeUpdate();
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        return count + OracleSchema.rowsOf(keys);
                    }
                }
            }
        }
    }

    /** The SQL with its arguments inlined, for humans. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        int arg = 0;
        List<Object> params = bound();
        for (char ch : kind.sql.toCharArray()) {
            if (ch == '?') {
                Object value = params.get(arg++);
                out.append(value instanceof String s ? "'" + s + "'" : String.valueOf(value));
            } else {
                out.append(ch);
            }
        }
        String text = out.toString();
        if (kind == Kind.UPDATE_OR_INSERT) {
            return text + "; if it updated 0 rows: " + insertAfterUpdate();
        }
        if (kind == Kind.CHECKED_UPDATE) {
            return text + "; if it updated 0 rows in a transaction: roll back and stop";
        }
        return text;
    }
}

package dev.frontrun.internal.sql.syntax;

import dev.frontrun.Access;
import java.util.List;
import java.util.Objects;

/**
 * What parsing learned from a SQL string, before any catalog or parameter is consulted. Exactly one
 * of: transaction control, a statement without shared data access, a data statement with its table
 * uses, or an opaque statement that the analysis cannot see into.
 */
public sealed interface StatementSyntax {

    StatementKind kind();

    /** Which front end produced the syntax: reported so slow or failing paths are visible. */
    enum Parser {
        KEYWORDS,
        FAST_PATH,
        JSQLPARSER
    }

    Parser parser();

    record Transaction(TransactionControl control) implements StatementSyntax {
        @Override
        public StatementKind kind() {
            return StatementKind.TRANSACTION;
        }

        @Override
        public Parser parser() {
            return Parser.KEYWORDS;
        }
    }

    /** SET, SHOW, EXPLAIN and the like; {@code what} is the leading keyword(s). */
    record NoData(String what, Parser parser) implements StatementSyntax {
        @Override
        public StatementKind kind() {
            return StatementKind.UTILITY;
        }
    }

    /**
     * A statement whose table uses are known.
     *
     * @param lock the row lock of a locking SELECT, or {@code null}
     * @param returning whether a RETURNING clause hands rows back to the client
     */
    record Data(StatementKind kind, List<TableUse> uses, LockIntent lock, boolean returning, Parser parser)
            implements StatementSyntax {
        public Data {
            Objects.requireNonNull(kind, "kind");
            uses = List.copyOf(uses);
        }
    }

    /**
     * A statement the analysis does not see into: it must be treated as touching every table with
     * {@code direction}. {@code mentioned} lists tables seen anyway, for reports only.
     */
    record Opaque(StatementKind kind, Access direction, String reason, List<TableName> mentioned, Parser parser)
            implements StatementSyntax {
        public Opaque {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(direction, "direction");
            Objects.requireNonNull(reason, "reason");
            mentioned = List.copyOf(mentioned);
        }

        public static Opaque write(StatementKind kind, String reason, Parser parser) {
            return new Opaque(kind, Access.WRITE, reason, List.of(), parser);
        }

        public boolean changesSchema() {
            return kind == StatementKind.DDL;
        }
    }
}

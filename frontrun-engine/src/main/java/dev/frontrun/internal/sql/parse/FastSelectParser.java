package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.FunctionPolicy;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.SqlToken;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Data;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Parser;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.List;

/** Parses the fast path's single-block SELECT, since its joins and locking clause decide which rows it reads. */
final class FastSelectParser {

    private final TokenCursor c;
    private final FastConditionParser conditions;

    FastSelectParser(TokenCursor c, FastConditionParser conditions) {
        this.c = c;
        this.conditions = conditions;
    }

    Data select() {
        c.expectWord("select");
        if (c.atWord("nextval")) {
            return nextval();
        }
        selectList();
        if (c.atEnd()) {
            return new Data(StatementKind.SELECT, List.of(), null, false, Parser.FAST_PATH); // select 1, now()…
        }
        c.expectWord("from");
        List<FastUse> uses = new ArrayList<>();
        conditions.block(uses);
        uses.add(fromTable(uses));
        while (c.atWord("join")
                || c.atWord("left")
                || c.atWord("right")
                || c.atWord("inner")
                || c.atWord("full")
                || c.atWord("cross")) {
            join(uses);
        }
        String qualifier = uses.size() == 1
                ? uses.get(0).alias != null
                        ? uses.get(0).alias
                        : uses.get(0).table.name()
                : null;
        if (c.atWord("where")) {
            attach(conditions.where(qualifier), uses);
        }
        LockIntent lock = null;
        while (!c.atEnd()) {
            if (c.atWord("order")) {
                orderBy(qualifier);
            } else if (c.atWord("limit")) {
                c.skip();
                if (c.atWord("all")) {
                    c.skip();
                } else {
                    c.valueOperand();
                }
            } else if (c.atWord("offset")) {
                c.skip();
                c.valueOperand();
                if (c.atWord("row") || c.atWord("rows")) {
                    c.skip();
                }
            } else if (c.atWord("fetch")) {
                fetch();
            } else if (c.atWord("for") && lock == null) {
                lock = forClause(uses);
            } else {
                throw TokenCursor.decline();
            }
        }
        List<TableUse> out = new ArrayList<>();
        for (FastUse use : uses) {
            out.add(
                    use.locked
                            ? new TableUse.Lock(use.table, use.conditions)
                            : new TableUse.Scan(use.table, use.conditions));
        }
        return new Data(StatementKind.SELECT, out, lock, false, Parser.FAST_PATH);
    }

    /** A table of the FROM list; {@code block} holds the block's earlier occurrences. */
    private FastUse fromTable(List<FastUse> block) {
        TableName table = c.tableName();
        if (c.atSymbol("*") || c.atSymbol("(")) {
            throw TokenCursor.decline(); // inheritance star or a function in FROM
        }
        FastUse use = new FastUse(table, c.optionalAlias());
        for (FastUse other : block) {
            if (other.answersTo(use.alias != null ? use.alias : use.table.name())) {
                throw TokenCursor
                        .decline(); // the same name twice in one block is an error or a shadowing we do not model
            }
        }
        return use;
    }

    /**
     * A join. Conditions of an inner join's ON restrict both sides; of a LEFT join only the new table;
     * of a RIGHT join only the tables before it; of a FULL join none (as in the JSqlParser front end).
     */
    private void join(List<FastUse> uses) {
        String type = "inner";
        if (c.atWord("left") || c.atWord("right") || c.atWord("full")) {
            type = c.next().text();
            c.acceptWord("outer");
        } else if (c.atWord("inner") || c.atWord("cross")) {
            type = c.next().text();
        }
        c.expectWord("join");
        List<FastUse> left = new ArrayList<>(uses);
        FastUse right = fromTable(uses);
        uses.add(right);
        if (type.equals("cross")) {
            return;
        }
        c.expectWord("on");
        List<Condition> on = conditions.conjunction(null);
        switch (type) {
            case "left" -> attach(on, List.of(right));
            case "right" -> attach(on, left);
            case "full" -> {}
            default -> attach(on, uses);
        }
    }

    private static void attach(List<Condition> conditions, List<FastUse> targets) {
        for (Condition condition : conditions) {
            for (FastUse use : targets) {
                if (condition.qualifier() == null || use.answersTo(condition.qualifier())) {
                    use.conditions.add(condition);
                }
            }
        }
    }

    private Data nextval() {
        c.skip();
        c.expectSymbol("(");
        SqlToken arg = c.next();
        if (arg.type() != SqlToken.Type.STRING) {
            throw TokenCursor.decline();
        }
        c.expectSymbol(")");
        if (!c.atEnd()) {
            throw TokenCursor.decline();
        }
        TableName sequence = FunctionPolicy.sequenceName(arg.text());
        if (sequence == null) {
            throw TokenCursor.decline();
        }
        return new Data(
                StatementKind.SELECT, List.of(new TableUse.SequenceNext(sequence)), null, false, Parser.FAST_PATH);
    }

    private void selectList() {
        if (c.atWord("distinct")) {
            c.skip();
        }
        do {
            if (c.atSymbol("*")) {
                c.skip();
                continue;
            }
            SqlToken first = c.peek();
            if (first.type() == SqlToken.Type.NUMBER
                    || first.type() == SqlToken.Type.STRING
                    || first.type() == SqlToken.Type.PARAM) {
                c.valueOperand();
            } else {
                if (TokenCursor.isReserved(first)) {
                    throw TokenCursor.decline();
                }
                c.identifier();
                if (c.atSymbol("(")) {
                    call(first);
                } else if (c.atSymbol(".")) {
                    c.skip();
                    if (c.atSymbol("*")) {
                        c.skip();
                        continue;
                    }
                    c.columnName();
                }
            }
            if (c.atWord("as")) {
                c.skip();
                c.identifier();
            } else if (!c.atEnd() && TokenCursor.isAliasToken(c.peek())) {
                c.skip();
            }
        } while (c.acceptSymbol(","));
    }

    /** {@code f(*)}, {@code f([distinct] arg, …)} of a known pure function; arguments are columns or values. */
    private void call(SqlToken name) {
        if (name.type() != SqlToken.Type.WORD
                || TokenCursor.isReserved(name)
                || FunctionPolicy.effect(null, name.text()) != FunctionPolicy.Effect.PURE) {
            throw TokenCursor.decline();
        }
        c.expectSymbol("(");
        if (c.acceptSymbol("*")) {
            c.expectSymbol(")");
            return;
        }
        if (c.acceptSymbol(")")) {
            return;
        }
        c.acceptWord("distinct");
        do {
            SqlToken arg = c.peek();
            if (arg.isIdentifier() && !TokenCursor.isReserved(arg)) {
                c.skip();
                if (c.atSymbol("(")) {
                    throw TokenCursor.decline(); // nested call
                }
                if (c.acceptSymbol(".")) {
                    c.columnName(); // select items restrict nothing; their qualifiers need no checking
                }
            } else {
                c.valueOperand();
            }
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
    }

    private void orderBy(String qualifier) {
        c.expectWord("order");
        c.expectWord("by");
        do {
            if (!(conditions.operand(qualifier) instanceof FastConditionParser.ColumnRef)) {
                throw TokenCursor.decline();
            }
            if (c.atWord("asc") || c.atWord("desc")) {
                c.skip();
            }
            if (c.atWord("nulls")) {
                c.skip();
                if (!(c.atWord("first") || c.atWord("last"))) {
                    throw TokenCursor.decline();
                }
                c.skip();
            }
        } while (c.acceptSymbol(","));
    }

    private void fetch() {
        c.expectWord("fetch");
        if (!(c.atWord("first") || c.atWord("next"))) {
            throw TokenCursor.decline();
        }
        c.skip();
        if (!(c.atWord("row") || c.atWord("rows"))) {
            c.valueOperand();
        }
        if (!(c.atWord("row") || c.atWord("rows"))) {
            throw TokenCursor.decline();
        }
        c.skip();
        if (c.atWord("only")) {
            c.skip();
        } else {
            c.expectWord("with");
            c.expectWord("ties");
        }
    }

    private LockIntent forClause(List<FastUse> uses) {
        c.expectWord("for");
        LockIntent.Strength strength;
        if (c.atWord("update")) {
            c.skip();
            strength = LockIntent.Strength.UPDATE;
        } else if (c.atWord("no")) {
            c.skip();
            c.expectWord("key");
            c.expectWord("update");
            strength = LockIntent.Strength.NO_KEY_UPDATE;
        } else if (c.atWord("share")) {
            c.skip();
            strength = LockIntent.Strength.SHARE;
        } else if (c.atWord("key")) {
            c.skip();
            c.expectWord("share");
            strength = LockIntent.Strength.KEY_SHARE;
        } else {
            throw TokenCursor.decline();
        }
        if (c.atWord("of")) {
            c.skip();
            do {
                String name = c.identifier();
                boolean found = false;
                for (FastUse use : uses) {
                    if (use.answersTo(name)) {
                        use.locked = true;
                        found = true;
                    }
                }
                if (!found) {
                    throw TokenCursor.decline();
                }
            } while (c.acceptSymbol(","));
        } else {
            uses.forEach(use -> use.locked = true);
        }
        LockIntent.WaitPolicy wait = LockIntent.WaitPolicy.WAIT;
        if (c.atWord("nowait")) {
            c.skip();
            wait = LockIntent.WaitPolicy.NOWAIT;
        } else if (c.atWord("skip")) {
            c.skip();
            c.expectWord("locked");
            wait = LockIntent.WaitPolicy.SKIP_LOCKED;
        }
        return new LockIntent(strength, wait);
    }
}

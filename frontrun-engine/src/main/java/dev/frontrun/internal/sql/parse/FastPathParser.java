package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.FunctionPolicy;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.SqlToken;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Data;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Parser;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A strict recursive-descent parser for the statements ORMs emit (Hibernate, Spring Data).
 * {@code select items from t [a] [[left|right|inner|full|cross] join u [b] on …]… [where …]
 * [order by …] [offset/fetch/limit] [for …]}, {@code insert into t (cols) values (…)[, (…)]
 * [returning …]}, {@code update t set c=v,… [where …]}, {@code delete from t [where …]},
 * {@code select nextval('seq')} and {@code select <literal>}. Select items may call known pure
 * functions on columns ({@code count(o1_0.id)}); conditions may be tuples ({@code (a,b) in ((?,?))}).
 *
 * <p>It must consume every token; anything it does not recognise (subqueries, OR, casts, unknown
 * functions…) makes it decline by returning {@code null}, and the statement goes to the full parser.
 * Declining is always safe; accepting is only allowed when the grammar above is all there is, and it
 * must then produce exactly what the JSqlParser front end would (a differential test checks this).
 */
final class FastPathParser {

    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");
    private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%", "||");

    private final TokenCursor c;

    private FastPathParser(List<SqlToken> tokens) {
        this.c = new TokenCursor(tokens);
    }

    /** The syntax of a fast-path statement, or {@code null} to let the full parser decide. */
    static Data parse(SqlLexer.Result lexed) {
        if (lexed.exotic() || lexed.malformed()) {
            return null;
        }
        List<SqlToken> tokens = LeadingKeywordRecognizer.withoutTrailingSemicolons(lexed.tokens());
        if (tokens.isEmpty()) {
            return null;
        }
        for (SqlToken token : tokens) {
            if (token.isSymbol(";")) {
                return null;
            }
        }
        FastPathParser p = new FastPathParser(tokens);
        try {
            Data data = p.statement();
            return data != null && p.c.atEnd() && p.c.parametersSeen() == lexed.placeholders() ? data : null;
        } catch (TokenCursor.Decline e) {
            return null;
        }
    }

    private Data statement() {
        SqlToken first = c.peek();
        if (first.isWord("select")) {
            return select();
        }
        if (first.isWord("insert")) {
            return insert();
        }
        if (first.isWord("update")) {
            return update();
        }
        if (first.isWord("delete")) {
            return delete();
        }
        return null;
    }

    // ---- SELECT ------------------------------------------------------------------------------

    /** A table occurrence of the statement's single query block, collecting its conditions. */
    private static final class FastUse {
        final TableName table;
        final String alias;
        final List<Condition> conditions = new ArrayList<>();
        boolean locked;

        FastUse(TableName table, String alias) {
            this.table = table;
            this.alias = alias;
        }

        boolean answersTo(String name) {
            return alias != null ? alias.equals(name) : table.name().equals(name);
        }
    }

    /** The occurrences of the block being parsed; qualified columns must name one of them. */
    private List<FastUse> block = List.of();

    private Data select() {
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
        block = uses;
        uses.add(fromTable());
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
            attach(where(qualifier), uses);
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

    private FastUse fromTable() {
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
        FastUse right = fromTable();
        uses.add(right);
        if (type.equals("cross")) {
            return;
        }
        c.expectWord("on");
        List<Condition> conditions = conjunction(null);
        switch (type) {
            case "left" -> attach(conditions, List.of(right));
            case "right" -> attach(conditions, left);
            case "full" -> {}
            default -> attach(conditions, uses);
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
            if (!(operand(qualifier) instanceof ColumnRef)) {
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

    // ---- INSERT ------------------------------------------------------------------------------

    private Data insert() {
        c.expectWord("insert");
        c.expectWord("into");
        TableName table = c.tableName();
        if (c.atWord("as")) {
            c.skip();
            c.identifier();
        }
        List<String> columns = null;
        List<List<Operand>> rows = new ArrayList<>();
        if (c.atWord("default")) {
            c.skip();
            c.expectWord("values");
            columns = List.of();
            rows.add(List.of());
        } else {
            if (c.acceptSymbol("(")) {
                columns = new ArrayList<>();
                do {
                    columns.add(c.identifier());
                } while (c.acceptSymbol(","));
                c.expectSymbol(")");
            }
            c.expectWord("values");
            do {
                c.expectSymbol("(");
                List<Operand> row = new ArrayList<>();
                do {
                    if (c.atWord("default")) {
                        c.skip();
                        row.add(Operand.DEFAULT);
                    } else {
                        row.add(c.valueOperand());
                    }
                } while (c.acceptSymbol(","));
                c.expectSymbol(")");
                if (columns != null && row.size() != columns.size()) {
                    throw TokenCursor.decline();
                }
                rows.add(row);
            } while (c.acceptSymbol(","));
        }
        boolean returning = returning();
        return new Data(
                StatementKind.INSERT,
                List.of(new TableUse.Insert(table, columns, rows, null)),
                null,
                returning,
                Parser.FAST_PATH);
    }

    // ---- UPDATE / DELETE ---------------------------------------------------------------------

    private Data update() {
        c.expectWord("update");
        TableName table = c.tableName();
        String alias = c.optionalAlias();
        String qualifier = alias != null ? alias : table.name();
        block = List.of(new FastUse(table, alias));
        c.expectWord("set");
        Map<String, Operand> assignments = new LinkedHashMap<>();
        do {
            String column = c.identifier();
            c.expectSymbol("=");
            Operand value = assignedValue(qualifier);
            if (assignments.put(column, value) != null) {
                throw TokenCursor.decline();
            }
        } while (c.acceptSymbol(","));
        List<Condition> conditions = c.atWord("where") ? where(qualifier) : List.of();
        boolean returning = returning();
        return new Data(
                StatementKind.UPDATE,
                List.of(new TableUse.Update(table, conditions, assignments)),
                null,
                returning,
                Parser.FAST_PATH);
    }

    private Data delete() {
        c.expectWord("delete");
        c.expectWord("from");
        TableName table = c.tableName();
        String alias = c.optionalAlias();
        String qualifier = alias != null ? alias : table.name();
        block = List.of(new FastUse(table, alias));
        List<Condition> conditions = c.atWord("where") ? where(qualifier) : List.of();
        boolean returning = returning();
        return new Data(
                StatementKind.DELETE,
                List.of(new TableUse.Delete(table, conditions)),
                null,
                returning,
                Parser.FAST_PATH);
    }

    /** A SET value: a single operand is kept; {@code a + ?} style arithmetic becomes unknown. */
    private Operand assignedValue(String qualifier) {
        Object first = operand(qualifier);
        if (!(c.atOperator(ARITHMETIC))) {
            return first instanceof Operand op ? op : Operand.UNKNOWN;
        }
        while (c.atOperator(ARITHMETIC)) {
            c.skip();
            operand(qualifier);
        }
        return Operand.UNKNOWN;
    }

    private boolean returning() {
        if (!c.atWord("returning")) {
            return false;
        }
        c.skip();
        do {
            if (c.atSymbol("*")) {
                c.skip();
                continue;
            }
            if (TokenCursor.isReserved(c.peek())) {
                throw TokenCursor.decline();
            }
            c.identifier();
            if (c.atSymbol(".")) {
                c.skip();
                c.columnName();
            }
            if (c.atWord("as")) {
                c.skip();
                c.identifier();
            }
        } while (c.acceptSymbol(","));
        return true;
    }

    // ---- WHERE -------------------------------------------------------------------------------

    /** {@code where} and a conjunction of simple predicates. */
    private List<Condition> where(String qualifier) {
        c.expectWord("where");
        return conjunction(qualifier);
    }

    /** Simple predicates joined by AND; equality, IN and {@code = any(?)} on columns become conditions. */
    private List<Condition> conjunction(String qualifier) {
        List<Condition> conditions = new ArrayList<>();
        do {
            Condition condition = c.atSymbol("(") ? tuplePredicate() : predicate(qualifier);
            if (condition != null) {
                conditions.add(condition);
            }
        } while (c.acceptWord("and"));
        if (c.atWord("or")) {
            throw TokenCursor.decline();
        }
        return conditions;
    }

    /** {@code (c1, c2, …) = (v1, v2, …)} or {@code (c1, c2, …) in ((…), …)} with columns of one table. */
    private Condition tuplePredicate() {
        c.expectSymbol("(");
        List<ColumnRef> columns = new ArrayList<>();
        do {
            if (!(operand(null) instanceof ColumnRef col)) {
                throw TokenCursor.decline();
            }
            columns.add(col);
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        if (columns.size() < 2) {
            throw TokenCursor.decline();
        }
        String qualifier = columns.get(0).qualifier();
        for (ColumnRef column : columns) {
            if (!Objects.equals(column.qualifier(), qualifier)) {
                throw TokenCursor.decline();
            }
        }
        List<List<Operand>> rows = new ArrayList<>();
        if (c.atSymbol("=") && c.peek().type() == SqlToken.Type.OPERATOR) {
            c.skip();
            rows.add(valueRow(columns.size()));
        } else {
            c.expectWord("in");
            c.expectSymbol("(");
            do {
                rows.add(valueRow(columns.size()));
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        return new Condition(qualifier, columns.stream().map(ColumnRef::column).toList(), rows);
    }

    private List<Operand> valueRow(int size) {
        c.expectSymbol("(");
        List<Operand> row = new ArrayList<>();
        do {
            row.add(c.valueOperand());
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        if (row.size() != size) {
            throw TokenCursor.decline();
        }
        return row;
    }

    private Condition predicate(String qualifier) {
        Object left = operand(qualifier);
        boolean not = c.acceptWord("not");
        if (!not && c.atOperator(COMPARISONS)) {
            String op = c.next().text();
            if (op.equals("=") && c.atWord("any")) {
                c.skip();
                c.expectSymbol("(");
                SqlToken p = c.next();
                if (p.type() != SqlToken.Type.PARAM) {
                    throw TokenCursor.decline();
                }
                Operand array = new Operand.ArrayParam(c.nextParameter());
                c.expectSymbol(")");
                return left instanceof ColumnRef col ? condition(col, List.of(array)) : null;
            }
            Object right = operand(qualifier);
            if (!op.equals("=")) {
                return null;
            }
            if (left instanceof ColumnRef col && right instanceof Operand value) {
                return condition(col, List.of(value));
            }
            if (right instanceof ColumnRef col && left instanceof Operand value) {
                return condition(col, List.of(value));
            }
            return null;
        }
        if (c.atWord("in")) {
            c.skip();
            c.expectSymbol("(");
            List<Operand> values = new ArrayList<>();
            do {
                values.add(c.valueOperand());
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
            return !not && left instanceof ColumnRef col ? condition(col, values) : null;
        }
        if (c.atWord("like") || c.atWord("ilike")) {
            c.skip();
            operand(qualifier);
            if (c.acceptWord("escape")) {
                c.valueOperand();
            }
            return null;
        }
        if (c.atWord("between")) {
            c.skip();
            operand(qualifier);
            c.expectWord("and");
            operand(qualifier);
            return null;
        }
        if (!not && c.atWord("is")) {
            c.skip();
            c.acceptWord("not");
            if (!(c.atWord("null") || c.atWord("true") || c.atWord("false") || c.atWord("unknown"))) {
                throw TokenCursor.decline();
            }
            c.skip();
            return null;
        }
        throw TokenCursor.decline();
    }

    private Condition condition(ColumnRef col, List<Operand> values) {
        return new Condition(
                col.qualifier(),
                List.of(col.column()),
                values.stream().map(List::of).toList());
    }

    /** A column, qualified with the alias (or name) of a table of the block, or unqualified. */
    private record ColumnRef(String qualifier, String column) {}

    private boolean knownQualifier(String name) {
        for (FastUse use : block) {
            if (use.answersTo(name)) {
                return true;
            }
        }
        return false;
    }

    /** A column of the block or a value; {@code qualifier}, if given, is the only table of the block. */
    private Object operand(String qualifier) {
        SqlToken token = c.peek();
        if (token.isIdentifier() && !TokenCursor.isReserved(token)) {
            c.skip();
            if (c.atSymbol(".")) {
                c.skip();
                if (!(qualifier != null ? token.text().equals(qualifier) : knownQualifier(token.text()))) {
                    throw TokenCursor.decline(); // a table not in this block: correlated or invalid
                }
                return new ColumnRef(token.text(), c.columnName());
            }
            if (c.atSymbol("(")) {
                throw TokenCursor.decline(); // a function call
            }
            return new ColumnRef(null, token.text());
        }
        return c.valueOperand();
    }
}

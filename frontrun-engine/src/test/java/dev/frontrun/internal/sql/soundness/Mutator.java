package dev.frontrun.internal.sql.soundness;

import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.SqlToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Damages generated statements. {@link #broken} makes text PostgreSQL certainly rejects (an
 * unterminated quote or comment, an unbalanced parenthesis) — the classifier must then claim
 * everything. {@link #scrambled} applies arbitrary edits (truncation, token deletion, duplication,
 * swaps, insertions, token soup) whose effect nobody knows.
 */
public final class Mutator {

    static final String[] VOCABULARY = {
        "select",
        "from",
        "where",
        "and",
        "or",
        "not",
        "in",
        "(",
        ")",
        ",",
        "=",
        "<",
        "?",
        "1",
        "2",
        "'x'",
        "t1",
        "t2",
        "t3",
        "t4",
        "id",
        "v",
        "a",
        "b",
        "x",
        "update",
        "set",
        "delete",
        "insert",
        "into",
        "values",
        "for",
        "union",
        "join",
        "left",
        "on",
        "with",
        "as",
        "returning",
        "--",
        "/*",
        "*/",
        ";",
        "myfunc",
        "lower",
        "*",
        "null",
        "default",
        "begin",
        "commit",
        "any",
        "exists",
        "share",
        "nowait",
        "conflict",
        "do",
        "nothing",
        "merge",
        "using",
        "truncate",
        "order",
        "by",
        "limit",
        "\"t1\"",
        "public.t1",
        "::int",
        "$1",
        "??",
        "E'y'",
        "$$z$$"
    };

    private final Random random;

    public Mutator(Random random) {
        this.random = random;
    }

    GeneratedStatement broken(GeneratedStatement g) {
        List<Integer> starts = tokenStarts(g.sql());
        int at = starts.isEmpty() ? 0 : starts.get(random.nextInt(starts.size()));
        String insert;
        int kind = random.nextInt(3);
        if (kind == 0 && !g.sql().contains("'")) {
            insert = "'";
        } else if (kind == 1) {
            insert = "/* ";
        } else {
            insert = "( ";
        }
        String sql = g.sql().substring(0, at) + insert + g.sql().substring(at);
        return new GeneratedStatement("broken by " + insert.strip() + " <- " + g.origin(), sql, g.params(), null, true);
    }

    public GeneratedStatement scrambled(GeneratedStatement g) {
        String sql = g.sql();
        List<String> tokens = tokens(sql);
        String how;
        switch (random.nextInt(6)) {
            case 0 -> {
                int cut = random.nextInt(sql.length() + 1);
                sql = sql.substring(0, cut);
                how = "truncated";
            }
            case 1 -> {
                if (!tokens.isEmpty()) {
                    tokens.remove(random.nextInt(tokens.size()));
                }
                sql = String.join(" ", tokens);
                how = "token deleted";
            }
            case 2 -> {
                if (!tokens.isEmpty()) {
                    int i = random.nextInt(tokens.size());
                    tokens.add(i, tokens.get(i));
                }
                sql = String.join(" ", tokens);
                how = "token duplicated";
            }
            case 3 -> {
                if (tokens.size() > 1) {
                    int i = random.nextInt(tokens.size() - 1);
                    String t = tokens.get(i);
                    tokens.set(i, tokens.get(i + 1));
                    tokens.set(i + 1, t);
                }
                sql = String.join(" ", tokens);
                how = "tokens swapped";
            }
            case 4 -> {
                tokens.add(random.nextInt(tokens.size() + 1), VOCABULARY[random.nextInt(VOCABULARY.length)]);
                sql = String.join(" ", tokens);
                how = "token inserted";
            }
            default -> {
                StringBuilder soup = new StringBuilder();
                int n = 1 + random.nextInt(14);
                for (int i = 0; i < n; i++) {
                    soup.append(i == 0 ? "" : " ").append(VOCABULARY[random.nextInt(VOCABULARY.length)]);
                }
                sql = soup.toString();
                how = "token soup";
            }
        }
        return new GeneratedStatement(how + " <- " + g.origin(), sql, g.params(), null, false);
    }

    private static List<Integer> tokenStarts(String sql) {
        List<Integer> starts = new ArrayList<>();
        for (SqlToken t : SqlLexer.lex(sql).tokens()) {
            starts.add(t.position());
        }
        return starts;
    }

    /** The original spelling of each token (comments dropped). */
    private static List<String> tokens(String sql) {
        List<SqlToken> lexed = SqlLexer.lex(sql).tokens();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lexed.size(); i++) {
            int start = lexed.get(i).position();
            int end = i + 1 < lexed.size() ? lexed.get(i + 1).position() : sql.length();
            String text = sql.substring(start, end);
            int comment = Math.max(text.indexOf("/*"), text.indexOf("--"));
            if (comment > 0 && lexed.get(i).type() != SqlToken.Type.STRING) {
                text = text.substring(0, comment);
            }
            out.add(text.strip());
        }
        return out;
    }
}

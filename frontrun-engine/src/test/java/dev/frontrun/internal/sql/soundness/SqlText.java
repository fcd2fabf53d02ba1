package dev.frontrun.internal.sql.soundness;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Builds one SQL string left to right, so JDBC parameters are numbered in text order, with a random
 * but meaning-preserving style: keyword case, comments and line breaks between tokens, schema
 * qualification and quoting of table names, literals or placeholders for values.
 */
final class SqlText {

    private final Random random;
    private final boolean upper;
    private final boolean mixed;
    private final boolean comments;
    private final boolean qualify;
    private final boolean quote;
    private final double literalShare;
    private final StringBuilder sql = new StringBuilder();
    private final List<Object> params = new ArrayList<>();

    SqlText(Random random) {
        this.random = random;
        this.upper = random.nextInt(4) == 0;
        this.mixed = random.nextInt(8) == 0;
        this.comments = random.nextInt(6) == 0;
        this.qualify = random.nextInt(5) == 0;
        this.quote = random.nextInt(6) == 0;
        this.literalShare = random.nextDouble();
    }

    private void separate() {
        if (sql.length() == 0) {
            return;
        }
        if (comments && random.nextInt(4) == 0) {
            sql.append(random.nextBoolean() ? " /* c */ " : " -- c\n");
        } else {
            sql.append(random.nextInt(10) == 0 ? "\n  " : " ");
        }
    }

    /** Keywords and other fixed text, space separated words. */
    SqlText kw(String words) {
        for (String w : words.split(" ")) {
            separate();
            sql.append(cased(w));
        }
        return this;
    }

    private String cased(String w) {
        if (mixed) {
            StringBuilder s = new StringBuilder();
            for (char c : w.toCharArray()) {
                s.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
            }
            return s.toString();
        }
        return upper ? w.toUpperCase() : w;
    }

    /** Punctuation glued to the previous token. */
    SqlText p(String punctuation) {
        sql.append(punctuation);
        return this;
    }

    SqlText table(String name) {
        separate();
        String ident = quote ? '"' + name + '"' : cased(name);
        sql.append(qualify ? (quote ? "\"public\"." : cased("public") + ".") + ident : ident);
        return this;
    }

    /** A value: a literal or a placeholder bound to it. */
    SqlText value(int v) {
        separate();
        if (random.nextDouble() < literalShare) {
            sql.append(v);
        } else {
            sql.append('?');
            params.add(random.nextInt(3) == 0 ? (Object) Long.valueOf(v) : (Object) Integer.valueOf(v));
        }
        return this;
    }

    /** A placeholder bound to an array, for {@code = any(?)}. */
    SqlText array(Integer... values) {
        sql.append('?');
        params.add(values);
        return this;
    }

    String sql() {
        return sql.toString();
    }

    List<Object> params() {
        return params;
    }
}

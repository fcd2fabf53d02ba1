package dev.frontrun.internal.sql.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Placeholder counting and token boundaries decide parameter numbering, so they are tested directly. */
class SqlLexerTest {

    private static List<String> texts(String sql) {
        return SqlLexer.lex(sql).tokens().stream()
                .map(t -> t.type() + ":" + t.text())
                .toList();
    }

    @Test
    void placeholdersInsideStringsCommentsAndQuotedNamesDoNotCount() {
        assertThat(SqlLexer.lex("select '?', \"?\", ? /* ? */ -- ?\n, ?").placeholders())
                .isEqualTo(2);
        assertThat(SqlLexer.lex("select $$ ? $$, $tag$ ' ? $tag$, ?").placeholders())
                .isEqualTo(1);
        assertThat(SqlLexer.lex("select E'\\' ?', ?").placeholders()).isEqualTo(1);
        assertThat(SqlLexer.lex("select /* outer /* nested ? */ still ? */ ?").placeholders())
                .isEqualTo(1);
        assertThat(SqlLexer.lex("select j ?? 'k', ?").placeholders()).isEqualTo(1);
    }

    @Test
    void tokensFoldWordsAndKeepQuotedNamesAndStringValues() {
        assertThat(texts("SELECT O.\"Id\", 'it''s' FROM Owners O WHERE o.id>=-1"))
                .containsExactly(
                        "WORD:select",
                        "WORD:o",
                        "PUNCT:.",
                        "QUOTED:Id",
                        "PUNCT:,",
                        "STRING:it's",
                        "WORD:from",
                        "WORD:owners",
                        "WORD:o",
                        "WORD:where",
                        "WORD:o",
                        "PUNCT:.",
                        "WORD:id",
                        "OPERATOR:>=",
                        "OPERATOR:-",
                        "NUMBER:1");
        assertThat(texts("a::int")).containsExactly("WORD:a", "PUNCT:::", "WORD:int");
    }

    @Test
    void unterminatedLexemesAreMalformedAndExoticOnesMarked() {
        assertThat(SqlLexer.lex("select 'abc").malformed()).isTrue();
        assertThat(SqlLexer.lex("select \"abc").malformed()).isTrue();
        assertThat(SqlLexer.lex("select 1 /* open").malformed()).isTrue();
        assertThat(SqlLexer.lex("select $$ open").malformed()).isTrue();
        assertThat(SqlLexer.lex("select \"\"").malformed()).isTrue();
        assertThat(SqlLexer.lex("select E'x'").exotic()).isTrue();
        assertThat(SqlLexer.lex("select 0x1F").exotic()).isTrue();
        assertThat(SqlLexer.lex("select * from t where id = $1").exotic()).isTrue();
        assertThat(SqlLexer.lex("select o.id from owners o where o.id = ?").exotic())
                .isFalse();
    }
}

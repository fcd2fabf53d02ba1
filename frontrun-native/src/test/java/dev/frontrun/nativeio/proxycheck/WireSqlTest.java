package dev.frontrun.nativeio.proxycheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** How the SQL a JDBC application wrote compares with what pgjdbc puts on the wire. */
class WireSqlTest {

    @Test
    void placeholdersWhitespaceAndTrailingSemicolonsDoNotMatter() {
        assertThat(WireSql.normalized("SELECT a\n  FROM t WHERE id = $1 AND b = $12;"))
                .isEqualTo(WireSql.normalized("SELECT a FROM t WHERE id = ? AND b = ?"))
                .isEqualTo("SELECT a FROM t WHERE id = ? AND b = ?");
    }

    /** The one-pass normalization against the regular expressions it replaced, on random texts of the tricky characters. */
    @Test
    void theNormalizationIsTheRegularExpressionsOnes() {
        Pattern space = Pattern.compile("\\s+");
        Pattern placeholder = Pattern.compile("\\$\\d+|\\?");
        String alphabet = " \t\n\u000B\f\r\u0001\u00A0;$?0129aZ'\"";
        Random random = new Random(14);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sql = new StringBuilder();
            for (int k = random.nextInt(12); k > 0; k--) {
                sql.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = space.matcher(sql).replaceAll(" ").trim();
            while (text.endsWith(";")) {
                text = text.substring(0, text.length() - 1).trim();
            }
            assertThat(WireSql.normalized(sql.toString()))
                    .as("%s", sql)
                    .isEqualTo(placeholder.matcher(text).replaceAll("?"));
        }
    }

    @Test
    void aDriverAppendedReturningMatchesButAnyOtherSuffixDoesNot() {
        String announced = WireSql.normalized("insert into t (a) values (?)");
        assertThat(WireSql.matches(
                        WireSql.normalized("insert into t (a) values ($1)\nRETURNING \"id\""), false, announced))
                .isTrue();
        assertThat(WireSql.matches(
                        WireSql.normalized("insert into t (a) values ($1) on conflict do nothing"), false, announced))
                .isFalse();
        assertThat(WireSql.matches(
                        WireSql.normalized("insert into t (a) values ($1)"),
                        false,
                        WireSql.normalized("insert into t (a) values (?) returning id")))
                .as("a shorter text is another statement")
                .isFalse();
    }

    @Test
    void aTruncatedTextMatchesTheStatementItBegins() {
        String full = "select '" + "x".repeat(3000) + "' from t where id = ?";
        String wire = WireSql.normalized(full.substring(0, 2048));
        assertThat(WireSql.matches(wire, true, WireSql.normalized(full))).isTrue();
        assertThat(WireSql.matches(wire, true, WireSql.normalized("select 'y' from t")))
                .isFalse();
    }

    @Test
    void statementsSplitAtSemicolonsOutsideQuotesAndComments() {
        assertThat(WireSql.statements("select ';'; select \"a;b\" from t -- ;\n; select $x$;$x$;;"))
                .containsExactly("select ';'", " select \"a;b\" from t -- ;\n", " select $x$;$x$");
        assertThat(WireSql.statements("update t set a = $1; select 1"))
                .containsExactly("update t set a = $1", " select 1");
    }

    @Test
    void framingIsTransactionControlSessionSettingsAndTheEmptyQueryOnly() {
        assertThat(WireSql.framing("")).isTrue();
        assertThat(WireSql.framing("BEGIN")).isTrue();
        assertThat(WireSql.framing("BEGIN READ ONLY")).isTrue();
        assertThat(WireSql.framing("COMMIT")).isTrue();
        assertThat(WireSql.framing("SAVEPOINT PGJDBC_AUTOSAVE")).isTrue();
        assertThat(WireSql.framing("ROLLBACK TO SAVEPOINT PGJDBC_AUTOSAVE")).isTrue();
        assertThat(WireSql.framing("SET application_name = 'x'")).isTrue();
        assertThat(WireSql.framing("SHOW TRANSACTION ISOLATION LEVEL")).isTrue();
        assertThat(WireSql.framing("SELECT 1")).isFalse();
        assertThat(WireSql.framing("select set_config('a', 'b', false)")).isFalse();
        assertThat(WireSql.framing("UPDATE settings SET a = 1")).isFalse();
        assertThat(WireSql.framing("settle_payment()"))
                .as("a word that starts like SET is not SET")
                .isFalse();
    }
}

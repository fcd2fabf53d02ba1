package dev.frontrun.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.internal.sql.ColumnValue.Source;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Parser;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The columns a statement writes and the values it binds to them, in the order of its text. */
class ValuesWrittenTest {

    private final SqlClassifier classifier = PetClinicSchema.classifier();

    private List<ColumnValue> written(String sql, Object... params) {
        return classifier.classify(sql).valuesWritten(Arrays.asList(params));
    }

    private static ColumnValue bound(String column, Object value) {
        return new ColumnValue(column, value, Source.BOUND);
    }

    @Test
    void anUpdateSetsItsColumnsInTheOrderOfItsSetClause() {
        String sql = "update owners set telephone=?,last_name=?,first_name=?,city=?,address=? where id=?";
        assertThat(classifier.classify(sql).parsedBy()).isEqualTo(Parser.FAST_PATH);
        assertThat(written(sql, "555", "Davis", "Betty", "Sun Prairie", "638 Cardinal Ave.", 2))
                .containsExactly(
                        bound("telephone", "555"),
                        bound("last_name", "Davis"),
                        bound("first_name", "Betty"),
                        bound("city", "Sun Prairie"),
                        bound("address", "638 Cardinal Ave."));
    }

    @Test
    void literalsExpressionsAndNullsAreToldApart() {
        assertThat(written(
                        "update owners set city = 'Madison', telephone = telephone || ?, address = null where id = ?",
                        "0",
                        1))
                .containsExactly(
                        new ColumnValue("city", "'Madison'", Source.LITERAL),
                        new ColumnValue("telephone", null, Source.EXPRESSION),
                        new ColumnValue("address", "NULL", Source.LITERAL));
    }

    @Test
    void anUpdateWithAFromClauseThroughTheFullParser() {
        String sql = "update owners o set city = ? from pets p where p.owner_id = o.id and p.id = ?";
        assertThat(classifier.classify(sql).parsedBy()).isEqualTo(Parser.JSQLPARSER);
        assertThat(written(sql, "Monona", 7)).containsExactly(bound("city", "Monona"));
    }

    @Test
    void anInsertOfOneRowSetsItsListedColumns() {
        assertThat(written("insert into owners (id, first_name, last_name) values (?, ?, default)", 5, "Jean"))
                .containsExactly(
                        bound("id", 5),
                        bound("first_name", "Jean"),
                        new ColumnValue("last_name", null, Source.DEFAULT));
    }

    @Test
    void readsAndInsertsOfSeveralRowsSetNothingTheReportsShow() {
        assertThat(written("insert into owners (id, first_name) values (?, ?), (?, ?)", 5, "a", 6, "b"))
                .isEmpty();
        assertThat(written("select city from owners where id = ?", 1)).isEmpty();
        assertThat(written("delete from owners where id = ?", 1)).isEmpty();
    }
}

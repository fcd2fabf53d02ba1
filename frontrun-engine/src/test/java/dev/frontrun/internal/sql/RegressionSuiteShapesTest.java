package dev.frontrun.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shapes of PostgreSQL's own regression suite that the analysis once failed on with an exception (and reported as a
 * write of every table) or read wrongly, each with the exact accesses expected (sorted).
 */
class RegressionSuiteShapesTest {

    private final SqlClassifier classifier = PetClinicSchema.classifier();

    private List<String> accesses(String sql) {
        Classification c = classifier.classify(sql);
        assertThat(c.notes()).as("notes of %s", sql).noneMatch(note -> note.contains("failed"));
        return c.bind(List.of()).accesses().stream()
                .map(ResourceAccess::toString)
                .sorted()
                .toList();
    }

    @Test
    void aParenthesizedTableCommandReadsItsTable() {
        assertThat(accesses("SELECT * FROM (TABLE owners) AS o (a, b)"))
                .containsExactly("READ sql:owners", "READ sql:owners#members", "WEAK_READ sql:*");
    }

    @Test
    void columnsRenamedByAnAliasAreNotTheKeyTheyAreNamedLike() {
        List<String> wholeTable = List.of("READ sql:owners", "READ sql:owners#members", "WEAK_READ sql:*");
        // o.id is owners.first_name here: the rows read are not the row with key 1
        assertThat(accesses("SELECT * FROM owners AS o (x, id) WHERE id = 1")).isEqualTo(wholeTable);
        assertThat(accesses("SELECT * FROM (owners) AS o (x, id) WHERE o.id = 1"))
                .isEqualTo(wholeTable);
        assertThat(accesses("SELECT * FROM (TABLE owners) AS o (x, id) WHERE id = 1"))
                .isEqualTo(wholeTable);
        assertThat(accesses("SELECT * FROM owners AS o WHERE id = 1"))
                .as("an alias without columns keeps them")
                .containsExactly(
                        "READ sql:owners#keys", "READ sql:owners:(1)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
    }

    @Test
    void aDeleteUsingASubqueryReadsItsTables() {
        assertThat(accesses("DELETE FROM visits USING (SELECT * FROM pets WHERE pets.id = visits.pet_id) p"))
                .containsExactly(
                        "READ sql:pets",
                        "READ sql:pets#members",
                        "READ sql:visits#members",
                        "WEAK_WRITE sql:*",
                        "WEAK_WRITE sql:visits#members",
                        "WRITE sql:visits");
        assertThat(
                        accesses(
                                "DELETE FROM visits USING LATERAL (SELECT * FROM pets WHERE id = visits.pet_id) p WHERE visits.id = 3"))
                .containsExactly(
                        "READ sql:pets",
                        "READ sql:pets#members",
                        "READ sql:visits#keys",
                        "WEAK_WRITE sql:*",
                        "WEAK_WRITE sql:visits",
                        "WEAK_WRITE sql:visits#members",
                        "WRITE sql:visits:(3)");
    }

    @Test
    void rowsFromCallsEachOfItsFunctions() {
        assertThat(accesses("SELECT * FROM ROWS FROM (unnest(ARRAY[1, 2]), generate_series(1, 2)) WITH ORDINALITY"))
                .isEmpty();
        assertThat(accesses("SELECT * FROM ROWS FROM (unnest(ARRAY[1, 2]), my_function(1)) AS z (a, b)"))
                .containsExactly("WRITE sql:*");
        assertThat(classifier
                        .classify("SELECT * FROM ROWS FROM (my_function(1))")
                        .notes())
                .containsExactly("calls my_function(), which may read or write any table");
    }

    @Test
    void xmltableReadsOnlyWhatItsArgumentsRead() {
        assertThat(accesses("SELECT * FROM XMLTABLE('/r' PASSING '<r/>' COLUMNS a text)"))
                .isEmpty();
        assertThat(accesses("SELECT x.* FROM owners, LATERAL XMLTABLE('/d' PASSING owners.city COLUMNS a int) x "
                        + "WHERE owners.id = 2"))
                .containsExactly(
                        "READ sql:owners#keys", "READ sql:owners:(2)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
        assertThat(accesses("SELECT * FROM XMLTABLE('/r' PASSING my_document() COLUMNS a text)"))
                .containsExactly("WRITE sql:*");
    }
}

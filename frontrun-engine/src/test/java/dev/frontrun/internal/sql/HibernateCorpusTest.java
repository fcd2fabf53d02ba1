package dev.frontrun.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every statement of the Hibernate/Spring Data corpus is classified exactly as the corpus says. */
class HibernateCorpusTest {

    private static final String CORPUS = "/sql/hibernate-petclinic.corpus";
    private static final Map<String, String> DEFAULTS = Map.of("returning", "false", "generated", "false");

    private final SqlClassifier classifier = PetClinicSchema.classifier();

    @TestFactory
    Stream<DynamicTest> corpus() {
        return CorpusFile.load(CORPUS).stream()
                .map(entry -> DynamicTest.dynamicTest(entry.toString(), () -> {
                    Map<String, String> actual = CorpusExpectations.actual(classifier, entry);
                    Map<String, String> expected = new LinkedHashMap<>();
                    for (String key : actual.keySet()) {
                        expected.put(key, entry.expected().getOrDefault(key, DEFAULTS.getOrDefault(key, "")));
                    }
                    assertThat(entry.expected().keySet())
                            .as("unknown expectation keys")
                            .isSubsetOf(actual.keySet());
                    assertThat(actual).as(entry.sql()).isEqualTo(expected);
                }));
    }

    @Test
    void corpusIsSubstantialAndMostlyOnTheFastPath() {
        List<CorpusFile.Entry> entries = CorpusFile.load(CORPUS);
        long dml = entries.stream()
                .filter(e -> !e.expected().get("kind").equals("TRANSACTION")
                        && !e.expected().get("kind").equals("UTILITY"))
                .count();
        long fast = entries.stream()
                .filter(e -> "FAST_PATH".equals(e.expected().get("parser")))
                .count();
        assertThat(entries).hasSizeGreaterThanOrEqualTo(50);
        assertThat((double) fast / dml)
                .as("share of ORM statements on the fast path")
                .isGreaterThan(0.6);
    }

    @Test
    void secondClassificationComesFromTheCache() {
        String sql = CorpusFile.load(CORPUS).get(0).sql();
        assertThat(classifier.classify(sql)).isSameAs(classifier.classify(sql));
    }
}

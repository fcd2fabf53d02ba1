package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.internal.sql.PetClinicSchema;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.bind.GeneratedKey;
import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An analysis reused for the same statement and values is the analysis binding them afresh would give: with the
 * generated-key aliases as they are now, never as they were, and never for values that can change unseen.
 */
class BoundStatementsTest {

    private static final List<String> STATEMENTS = List.of(
            "select o.id, o.city from owners o where o.id = ?",
            "select * from pets where owner_id = ?",
            "update owners set city = ?, version = version + 1 where id = ? and version = ?",
            "update pets set name = ?, birth_date = ? where id = ?",
            "delete from visits where id = ?",
            "select * from owners where id = ? for update",
            "select * from owners where id = any(?)",
            "insert into accounts (id, balance) values (?, ?)",
            "insert into visits (pet_id, visit_date, description) values (?, ?, ?)",
            "insert into owners (first_name, last_name) values (?, ?) returning id",
            "insert into owners (first_name) values (?), (?) returning id",
            "update visits set visit_date = ? where id = ?",
            "select * from billing.invoices where id = ?",
            "update accounts set balance = balance - ? where id = ?",
            "select count(*) from visits where visit_date > ?");

    /** Random statements with random values, some repeated, against binding afresh each time. */
    @Test
    void aReusedAnalysisIsTheFreshAnalysis() {
        SqlClassifier classifier = PetClinicSchema.classifier();
        ClassifyingAnalyzer reusing = new ClassifyingAnalyzer(classifier);
        Random random = new Random(20261127);
        int reused = 0;
        Map<List<Object>, StatementAnalysis> seen = new HashMap<>();
        for (int execution = 0; execution < 40; execution++) {
            GeneratedKeyAliases aliases = new GeneratedKeyAliases();
            GeneratedKeyAliases freshAliases = new GeneratedKeyAliases();
            for (int i = 0; i < 30; i++) {
                String sql = STATEMENTS.get(random.nextInt(STATEMENTS.size()));
                List<Object> parameters = parameters(sql, random);
                int thread = random.nextInt(2);
                StatementAnalysis analysis = reusing.analyze(sql, parameters, thread, aliases);
                StatementAnalysis fresh =
                        new ClassifyingAnalyzer(classifier).analyze(sql, parameters, thread, freshAliases);
                assertThat(analysis).as("%s %s", sql, parameters).isEqualTo(fresh);
                reused += seen.put(Arrays.asList(sql, parameters), analysis) == analysis ? 1 : 0;
                // the keys the database generated: every later statement mentioning one sees its alias
                for (GeneratedKey key : analysis.generatedKeys()) {
                    int id = 1 + random.nextInt(4);
                    aliases.record(key, List.of(id));
                    freshAliases.record(
                            fresh.generatedKeys().get(analysis.generatedKeys().indexOf(key)), List.of(id));
                }
            }
        }
        assertThat(reused).as("analyses reused at all").isGreaterThan(200);
    }

    @Test
    void anAliasRecordedSinceIsSeen() {
        ClassifyingAnalyzer analyzer = new ClassifyingAnalyzer(PetClinicSchema.classifier());
        GeneratedKeyAliases aliases = new GeneratedKeyAliases();
        String update = "update owners set city = ? where id = ?";
        List<Object> values = List.of("Oslo", 3);

        StatementAnalysis before = analyzer.analyze(update, values, 1, aliases);
        StatementAnalysis insert =
                analyzer.analyze("insert into owners (first_name) values (?) returning id", List.of("Ann"), 0, aliases);
        aliases.record(insert.generatedKeys().get(0), List.of(3));
        StatementAnalysis after = analyzer.analyze(update, values, 1, aliases);

        assertThat(before.rowsShown()).contains("id=3");
        assertThat(after.rowsShown()).contains("@t0.1").doesNotContain("id=3");
        assertThat(after.accesses()).isNotEqualTo(before.accesses());
    }

    @Test
    void anInsertWhoseKeyTheDatabaseGeneratesTakesANewAliasEachTime() {
        ClassifyingAnalyzer analyzer = new ClassifyingAnalyzer(PetClinicSchema.classifier());
        GeneratedKeyAliases aliases = new GeneratedKeyAliases();
        String insert = "insert into owners (first_name) values (?) returning id";

        StatementAnalysis first = analyzer.analyze(insert, List.of("Ann"), 0, aliases);
        StatementAnalysis second = analyzer.analyze(insert, List.of("Ann"), 0, aliases);
        StatementAnalysis otherThread = analyzer.analyze(insert, List.of("Ann"), 1, aliases);

        assertThat(first.generatedKeys()).extracting(GeneratedKey::alias).containsExactly("@t0.1");
        assertThat(second.generatedKeys()).extracting(GeneratedKey::alias).containsExactly("@t0.2");
        assertThat(otherThread.generatedKeys()).extracting(GeneratedKey::alias).containsExactly("@t1.1");
    }

    /** The next execution's aliases start again: its first insert is the last one's first, and hands out its alias. */
    @Test
    void theNextExecutionsInsertReusesTheAnalysisAndHandsOutTheSameAlias() {
        ClassifyingAnalyzer analyzer = new ClassifyingAnalyzer(PetClinicSchema.classifier());
        String insert = "insert into owners (first_name) values (?) returning id";
        String update = "update owners set city = ? where id = ?";
        GeneratedKeyAliases execution1 = new GeneratedKeyAliases();
        StatementAnalysis first = analyzer.analyze(insert, List.of("Ann"), 0, execution1);
        execution1.record(first.generatedKeys().get(0), List.of(12));
        StatementAnalysis update1 = analyzer.analyze(update, List.of("Oslo", 12), 0, execution1);

        GeneratedKeyAliases execution2 = new GeneratedKeyAliases();
        StatementAnalysis again = analyzer.analyze(insert, List.of("Ann"), 0, execution2);
        StatementAnalysis next = analyzer.analyze(insert, List.of("Ann"), 0, execution2);
        execution2.record(again.generatedKeys().get(0), List.of(12));
        StatementAnalysis update2 = analyzer.analyze(update, List.of("Oslo", 12), 0, execution2);

        assertThat(again).isSameAs(first);
        assertThat(next.generatedKeys()).extracting(GeneratedKey::alias).containsExactly("@t0.2");
        assertThat(update2).isSameAs(update1);
        assertThat(update2.rowsShown()).contains("@t0.1");
    }

    @Test
    void anInsertOfTwoRowsIsReusedWithBothItsAliases() {
        ClassifyingAnalyzer analyzer = new ClassifyingAnalyzer(PetClinicSchema.classifier());
        String insert = "insert into owners (first_name) values (?), (?) returning id";
        StatementAnalysis first = analyzer.analyze(insert, List.of("Ann", "Bo"), 0, new GeneratedKeyAliases());
        StatementAnalysis again = analyzer.analyze(insert, List.of("Ann", "Bo"), 0, new GeneratedKeyAliases());

        assertThat(first.generatedKeys()).extracting(GeneratedKey::alias).containsExactly("@t0.1", "@t0.2");
        assertThat(again).isSameAs(first);
    }

    @Test
    void aDateChangedAfterItsBindingIsBoundAgain() {
        ClassifyingAnalyzer analyzer = new ClassifyingAnalyzer(PetClinicSchema.classifier());
        GeneratedKeyAliases aliases = new GeneratedKeyAliases();
        String update = "update visits set visit_date = ? where id = ?";
        Date date = Date.valueOf("2026-11-27");

        StatementAnalysis first = analyzer.analyze(update, new ArrayList<>(Arrays.asList(date, 7)), 0, aliases);
        date.setTime(Date.valueOf("2027-01-01").getTime());
        StatementAnalysis second = analyzer.analyze(update, new ArrayList<>(Arrays.asList(date, 7)), 0, aliases);

        assertThat(first.display()).contains("2026-11-27");
        assertThat(first.facts().parameters()).containsExactly(Date.valueOf("2026-11-27"), 7);
        assertThat(second.display()).contains("2027-01-01");
    }

    @Test
    void valuesThatCanChangeUnseenAreNotKept() {
        assertThat(BoundStatements.values("select 1 where ? = 1", List.of(new byte[] {1})))
                .isNull();
        assertThat(BoundStatements.values(
                        "select * from owners where id = any(?)", List.of((Object) new Integer[] {1, 2})))
                .isNull();
        assertThat(BoundStatements.values("select * from owners where id = any(?)", List.of(List.of(1, 2))))
                .isNull();
        assertThat(BoundStatements.values("select 1 where ? = 1", Arrays.asList(null, 1L, "x", LocalDate.EPOCH)))
                .isNotNull();
    }

    @Test
    void equalValuesOfOtherClassesAreOtherKeys() {
        BoundStatements.Values asInt = BoundStatements.values("select 1 where ? = 1", List.of(1));
        BoundStatements.Values asLong = BoundStatements.values("select 1 where ? = 1", List.of(1L));
        long now = 1_800_000_000_000L;
        BoundStatements.Values asDate =
                BoundStatements.values("select 1 where ? = 1", List.of(new java.util.Date(now)));
        BoundStatements.Values asTimestamp =
                BoundStatements.values("select 1 where ? = 1", List.of(new Timestamp(now)));

        assertThat(asInt.key()).isNotEqualTo(asLong.key());
        assertThat(asDate.key()).isNotEqualTo(asTimestamp.key());
        assertThat(BoundStatements.values("select 1 where ? = 1", List.of(new Timestamp(now)))
                        .key())
                .isEqualTo(asTimestamp.key());
    }

    private static List<Object> parameters(String sql, Random random) {
        List<Object> out = new ArrayList<>();
        int count = (int) sql.chars().filter(c -> c == '?').count();
        for (int i = 0; i < count; i++) {
            out.add(
                    switch (random.nextInt(8)) {
                        case 0 -> "v" + random.nextInt(3);
                        case 1 -> (long) (1 + random.nextInt(4));
                        case 2 -> null;
                        case 3 -> Date.valueOf(LocalDate.of(2026, 11, 1 + random.nextInt(3)));
                        case 4 -> new BigDecimal("1." + random.nextInt(2));
                        case 5 -> new UUID(0, random.nextInt(2));
                        case 6 -> new Integer[] {1 + random.nextInt(2), 3};
                        default -> 1 + random.nextInt(4);
                    });
        }
        return out;
    }
}

package dev.frontrun.internal.sql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.CorpusFile;
import dev.frontrun.internal.sql.PetClinicSchema;
import dev.frontrun.internal.sql.bind.KeyAliases;
import dev.frontrun.internal.sql.bind.PlanBinder;
import dev.frontrun.internal.sql.parse.jsql.JSqlParserFrontEnd;
import dev.frontrun.internal.sql.plan.AccessPlanner;
import dev.frontrun.internal.sql.schema.TableCatalog;
import dev.frontrun.internal.sql.soundness.GeneratedStatement;
import dev.frontrun.internal.sql.soundness.Mutator;
import dev.frontrun.internal.sql.soundness.SoundnessPropertyTest;
import dev.frontrun.internal.sql.soundness.StatementGenerator;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hand-written fast path against the JSqlParser front end: whatever the fast path accepts, the
 * slow path must understand the same way — same kind, lock intent, RETURNING, and the same accesses
 * once planned and bound. The two share no parsing code, so agreement is evidence for both.
 */
class FastPathDifferentialTest {

    @Test
    void agreesWithJSqlParserOnTheCorpus() {
        int accepted = 0;
        for (CorpusFile.Entry e : CorpusFile.load("/sql/hibernate-petclinic.corpus")) {
            accepted += compare(PetClinicSchema.catalog(), e.sql(), e.params(), e.toString()) ? 1 : 0;
        }
        assertThat(accepted).isGreaterThan(35);
    }

    @Test
    void agreesWithJSqlParserOnGeneratedAndScrambledStatements() {
        for (long seed : SoundnessPropertyTest.seeds()) {
            Random random = new Random(seed);
            StatementGenerator generator = new StatementGenerator(random);
            Mutator mutator = new Mutator(random);
            int accepted = 0;
            int generated = 3000;
            for (int i = 0; i < generated; i++) {
                GeneratedStatement g = generator.next();
                accepted += compare(SoundnessPropertyTest.catalog(), g.sql(), g.params(), "seed " + seed + ": " + g)
                        ? 1
                        : 0;
                GeneratedStatement s = mutator.scrambled(g);
                compare(SoundnessPropertyTest.catalog(), s.sql(), s.params(), "seed " + seed + ": " + s);
            }
            assertThat(accepted)
                    .as("seed %d: statements on the fast path", seed)
                    .isGreaterThan(generated / 3);
        }
    }

    /** Returns whether the fast path accepted {@code sql}; if so, checks the slow path agrees. */
    private static boolean compare(TableCatalog catalog, String sql, List<Object> params, String what) {
        SqlLexer.Result lexed = SqlLexer.lex(sql);
        if (lexed.malformed() || LeadingKeywordRecognizer.recognize(lexed.tokens()) != null) {
            return false;
        }
        StatementSyntax.Data fast = FastPathParser.parse(lexed);
        if (fast == null) {
            return false;
        }
        StatementSyntax slow = JSqlParserFrontEnd.parse(sql, lexed);
        assertThat(slow).as("%s%n  fast path: %s", what, fast).isInstanceOf(StatementSyntax.Data.class);
        StatementSyntax.Data data = (StatementSyntax.Data) slow;
        assertThat(data.kind()).as(what).isEqualTo(fast.kind());
        assertThat(data.lock()).as(what).isEqualTo(fast.lock());
        assertThat(data.returning()).as(what).isEqualTo(fast.returning());
        AccessPlanner planner = new AccessPlanner(catalog);
        List<String> fastAccesses = accesses(planner, fast, params);
        assertThat(accesses(planner, data, params))
                .as("%s%n  fast: %s%n  slow: %s", what, fast.uses(), data.uses())
                .isEqualTo(fastAccesses);
        return true;
    }

    private static List<String> accesses(AccessPlanner planner, StatementSyntax syntax, List<Object> params) {
        return PlanBinder.bind(planner.plan(syntax), params, KeyAliases.NONE).accesses().stream()
                .map(ResourceAccess::toString)
                .sorted()
                .toList();
    }
}

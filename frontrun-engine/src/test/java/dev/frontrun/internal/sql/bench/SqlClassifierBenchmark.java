package dev.frontrun.internal.sql.bench;

import dev.frontrun.internal.sql.PetClinicSchema;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of classifying one statement execution (classify + bind), per path:
 * <ul>
 *   <li>{@code cached}: the JDBC proxy's steady state — a cache hit plus binding the parameters;</li>
 *   <li>{@code uncachedFastPath}: first sight of an ORM statement the hand-written parser handles;</li>
 *   <li>{@code uncachedJSqlParser}: first sight of a statement that needs JSqlParser;</li>
 *   <li>{@code rawJSqlParser}: JSqlParser alone on the same text, for reference.</li>
 * </ul>
 * JSqlParser's generated parser has very large methods and needs about ten seconds of warm-up before
 * its numbers settle; the quick run below ({@code -wi 2 -i 3}) overstates its cost.
 * Run (from the repository root, after {@code ./mvnw -B -q install -pl frontrun-engine -DskipTests}):
 * <pre>
 * ./mvnw -B -q dependency:build-classpath -pl frontrun-engine -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -cp frontrun-engine/target/classes:frontrun-engine/target/test-classes:$(cat /tmp/cp.txt) \
 *     org.openjdk.jmh.Main SqlClassifierBenchmark -wi 2 -i 3 -f 1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SqlClassifierBenchmark {

    /** Statements by name: findById, update and fetchJoin take the fast path, the others need JSqlParser. */
    private static final Map<String, String> STATEMENTS = Map.of(
            "findById",
                    "select o1_0.id,o1_0.address,o1_0.city,o1_0.first_name,o1_0.last_name,o1_0.telephone "
                            + "from owners o1_0 where o1_0.id=?",
            "update", "update owners set address=?,city=?,first_name=?,last_name=?,telephone=? where id=?",
            "fetchJoin",
                    "select o1_0.id,o1_0.address,o1_0.city,o1_0.first_name,o1_0.last_name,p1_0.owner_id,"
                            + "p1_0.id,p1_0.birth_date,p1_0.name,t1_0.id,t1_0.name,o1_0.telephone from owners o1_0 "
                            + "left join pets p1_0 on o1_0.id=p1_0.owner_id left join types t1_0 on t1_0.id=p1_0.type_id "
                            + "where o1_0.id=?",
            "bulkUpdate",
                    "update pets p1_0 set name=? where p1_0.owner_id in "
                            + "(select o1_0.id from owners o1_0 where o1_0.last_name=?)",
            "cteUpsert",
                    "with ins as (insert into accounts (id, balance) values (?, ?) on conflict (id) do update "
                            + "set balance = accounts.balance + excluded.balance returning id) "
                            + "select a.id from accounts a join ins on ins.id = a.id where a.id = ?");

    private static final Map<String, List<Object>> PARAMETERS = Map.of(
            "findById", List.of(1),
            "update", List.of("a", "b", "c", "d", "e", 1),
            "fetchJoin", List.of(1),
            "bulkUpdate", List.of("x", "Davis"),
            "cteUpsert", List.of(1, 10, 1));

    /** A classifier whose cache already holds every benchmarked statement, and one without a cache. */
    @State(Scope.Benchmark)
    public static class Classifiers {
        final SqlClassifier cached = PetClinicSchema.classifier();
        final SqlClassifier uncached = new SqlClassifier(PetClinicSchema.catalog(), 0);

        @Setup
        public void warmCache() {
            for (String sql : STATEMENTS.values()) {
                cached.classify(sql);
            }
        }
    }

    /** Statements the hand-written fast path handles. */
    @State(Scope.Benchmark)
    public static class FastStatement {
        @Param({"findById", "update", "fetchJoin"})
        public String name;
    }

    /** Statements that need JSqlParser. */
    @State(Scope.Benchmark)
    public static class ParsedStatement {
        @Param({"bulkUpdate", "cteUpsert"})
        public String name;
    }

    @Benchmark
    public StatementAccesses cachedFastPath(Classifiers c, FastStatement s) {
        return c.cached.classify(STATEMENTS.get(s.name)).bind(PARAMETERS.get(s.name));
    }

    @Benchmark
    public StatementAccesses cachedJSqlParserStatement(Classifiers c, ParsedStatement s) {
        return c.cached.classify(STATEMENTS.get(s.name)).bind(PARAMETERS.get(s.name));
    }

    @Benchmark
    public StatementAccesses uncachedFastPath(Classifiers c, FastStatement s) {
        return c.uncached.classify(STATEMENTS.get(s.name)).bind(PARAMETERS.get(s.name));
    }

    @Benchmark
    public StatementAccesses uncachedJSqlParser(Classifiers c, ParsedStatement s) {
        return c.uncached.classify(STATEMENTS.get(s.name)).bind(PARAMETERS.get(s.name));
    }

    @Benchmark
    public Statement rawJSqlParser(ParsedStatement s) throws Exception {
        return CCJSqlParserUtil.newParser(STATEMENTS.get(s.name))
                .withAllowComplexParsing(false)
                .Statement();
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(args.length > 0 ? args : new String[] {SqlClassifierBenchmark.class.getName()});
    }
}

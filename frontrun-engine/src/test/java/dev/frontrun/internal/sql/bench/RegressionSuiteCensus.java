package dev.frontrun.internal.sql.bench;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.Classification;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.schema.FunctionEffect;
import dev.frontrun.internal.sql.schema.JdbcTableCatalog;
import dev.frontrun.internal.sql.schema.TableCatalog;
import dev.frontrun.internal.sql.schema.TableLookup;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.SqlToken;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How often the classifier falls back to a write of every table on read-only queries written by others: PostgreSQL's
 * own regression suite ({@code src/test/regress/sql/*.sql}), classified statement by statement against a fresh
 * embedded database, which knows the built-in functions. A query counts as read-only when it starts with SELECT,
 * WITH, VALUES or TABLE and names no data change, INTO, row lock, sequence change or advisory lock. With
 * {@code --create-functions} the suite's own CREATE FUNCTION and CREATE AGGREGATE statements are run first, in file
 * order (bodies unchecked), so that its functions are known as an application's would be. Also lists the analyses
 * that failed with an exception, over every statement. Run (classpath as for {@link SqlClassifierBenchmark}):
 * <pre>
 * java -cp "$CP" dev.frontrun.internal.sql.bench.RegressionSuiteCensus path/to/regress/sql [--create-functions]
 * </pre>
 */
public final class RegressionSuiteCensus {

    private static final Set<String> FIRST_WORDS = Set.of("select", "with", "values", "table");
    private static final Set<String> WRITING_WORDS =
            Set.of("insert", "update", "delete", "merge", "into", "nextval", "setval", "copy");
    private static final Set<String> LOCK_WORDS = Set.of("update", "share", "no", "key");
    private static final List<String> FAILURES =
            List.of("analysis failed: ", "planning failed: ", "parser failed: ", "binding failed: ");

    private RegressionSuiteCensus() {}

    public static void main(String[] args) throws IOException, SQLException {
        Path dir = Path.of(args[0]);
        boolean createFunctions = List.of(args).contains("--create-functions");
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
        TestDatabase db = TestPostgres.freshDatabase(RegressionSuiteCensus.class);
        JdbcTableCatalog catalog = JdbcTableCatalog.of(db.dataSource());
        SqlClassifier classifier = new SqlClassifier(
                new TableCatalog() { // the suite's DDL is not run: nothing changes
                    @Override
                    public TableLookup lookup(TableName asWritten) {
                        return catalog.lookup(asWritten);
                    }

                    @Override
                    public FunctionEffect function(String schema, String name) {
                        return catalog.function(schema, name);
                    }
                });
        int statements = 0;
        int readOnly = 0;
        int writeAll = 0;
        Map<String, Integer> failures = new TreeMap<>();
        Map<String, Integer> functions = new TreeMap<>();
        Map<String, Integer> otherReasons = new TreeMap<>();
        try (Connection c = db.connect();
                Statement st = c.createStatement()) {
            st.execute("SET check_function_bodies = off");
            for (Path file : files) {
                for (String sql : PsqlScript.statements(new String(Files.readAllBytes(file), StandardCharsets.UTF_8))) {
                    statements++;
                    if (createFunctions && createsFunction(sql)) {
                        try {
                            st.execute(sql);
                            classifier.invalidate();
                            catalog.invalidate();
                        } catch (SQLException ignored) {
                            // a type or table it needs is missing: the function stays unknown
                        }
                    }
                    Classification classification = classifier.classify(sql);
                    List<String> notes = classification.notes();
                    for (String note : notes) {
                        for (String failure : FAILURES) {
                            if (note.contains(failure)) {
                                failures.merge(note.substring(note.indexOf(failure)), 1, Integer::sum);
                            }
                        }
                    }
                    if (!readOnlyQuery(sql)) {
                        continue;
                    }
                    readOnly++;
                    List<ResourceAccess> accesses =
                            classification.bind(List.of()).accesses();
                    if (accesses.contains(new ResourceAccess("sql:*", Access.WRITE))) {
                        writeAll++;
                        String reason = notes.isEmpty() ? "(no note)" : notes.get(notes.size() - 1);
                        if (reason.startsWith("calls ")) {
                            functions.merge(reason.substring(6, reason.indexOf('(')), 1, Integer::sum);
                        } else {
                            otherReasons.merge(reason.replaceAll("\\d+", "N"), 1, Integer::sum);
                        }
                    }
                }
            }
        } finally {
            TestPostgres.drop(db);
        }
        System.out.printf(
                "%d files, %d statements, %d read-only queries, %d of them WRITE sql:* (%.1f %%)%n",
                files.size(), statements, readOnly, writeAll, 100.0 * writeAll / readOnly);
        System.out.printf(
                "for functions: %d queries, %d distinct functions%n",
                functions.values().stream().mapToInt(Integer::intValue).sum(), functions.size());
        top("functions", functions, 40);
        top("other reasons", otherReasons, 25);
        System.out.printf(
                "internal exceptions: %d%n",
                failures.values().stream().mapToInt(Integer::intValue).sum());
        failures.forEach((failure, n) -> System.out.printf("  %4d  %s%n", n, failure));
    }

    private static boolean createsFunction(String sql) {
        return sql.toLowerCase(Locale.ROOT).matches("(?s)\\s*create\\s+(or\\s+replace\\s+)?(function|aggregate)\\b.*");
    }

    /** Starts like a query and names nothing that writes or locks. */
    static boolean readOnlyQuery(String sql) {
        SqlLexer.Result lexed = SqlLexer.lex(sql);
        List<SqlToken> tokens = lexed.tokens();
        int first = 0;
        while (first < tokens.size() && tokens.get(first).isSymbol("(")) {
            first++;
        }
        if (lexed.malformed()
                || first >= tokens.size()
                || tokens.get(first).type() != SqlToken.Type.WORD
                || !FIRST_WORDS.contains(tokens.get(first).text())) {
            return false;
        }
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken t = tokens.get(i);
            if (t.type() != SqlToken.Type.WORD) {
                continue;
            }
            if (WRITING_WORDS.contains(t.text())
                    || t.text().contains("advisory")
                    || t.isWord("for")
                            && i + 1 < tokens.size()
                            && LOCK_WORDS.contains(tokens.get(i + 1).text())) {
                return false;
            }
        }
        return true;
    }

    private static void top(String title, Map<String, Integer> counts, int limit) {
        System.out.println(title + ":");
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .forEach(e -> System.out.printf("  %4d  %s%n", e.getValue(), e.getKey()));
    }
}

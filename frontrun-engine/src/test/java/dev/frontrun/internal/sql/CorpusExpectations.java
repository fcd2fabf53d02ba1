package dev.frontrun.internal.sql;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders what the classifier says about a corpus entry in the corpus's own vocabulary, so a test
 * can compare field by field and a failure shows the entry's actual text.
 */
final class CorpusExpectations {

    private CorpusExpectations() {}

    static Map<String, String> actual(SqlClassifier classifier, CorpusFile.Entry entry) {
        Classification c = classifier.classify(entry.sql());
        StatementAccesses accesses = c.bind(entry.params(), new GeneratedKeyAliases().forThread("t0"));
        Map<String, String> out = new LinkedHashMap<>();
        out.put("kind", c.kind().name());
        out.put("parser", c.parsedBy().name());
        out.put("read", tables(c.tablesRead().stream().toList()));
        out.put("written", tables(c.tablesWritten().stream().toList()));
        out.put(
                "accesses",
                accesses.accesses().stream()
                        .map(ResourceAccess::toString)
                        .sorted()
                        .collect(Collectors.joining(" | ")));
        out.put("touched", accesses.rowsTouched());
        out.put("lock", c.lockIntent().map(Object::toString).orElse(""));
        out.put(
                "tx",
                c.transactionControl()
                        .map(t -> t.op()
                                + t.savepoint().map(s -> " " + s).orElse("")
                                + t.isolationLevel().map(s -> " " + s).orElse(""))
                        .orElse(""));
        out.put("returning", String.valueOf(c.hasReturning()));
        out.put("generated", String.valueOf(c.keysGeneratedByDatabase()));
        return out;
    }

    private static String tables(List<TableName> names) {
        return names.stream().map(TableName::display).collect(Collectors.joining(", "));
    }
}
